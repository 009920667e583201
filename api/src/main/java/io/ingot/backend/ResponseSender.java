package io.ingot.backend;

import io.ingot.api.ErrorCode;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * Sends the responses of one request of a decoupled model's batch ({@code model_transaction_policy { decoupled:
 * true }}): Triton's response factory. The engine allocates a response's outputs, writes them, and {@link #send}s it;
 * it may send any number of responses this way, and marks the request complete either with the last one
 * ({@code send(true)}) or alone ({@link #sendFinal()}, Triton's flags-only FINAL), or refuses it
 * ({@link #refuse}). A request the engine leaves incomplete when {@link Engine#execute} returns is completed by the
 * runtime with a flags-only final; one whose batch fails gets an error as its final response. So every request
 * ends with exactly one final.
 *
 * <p>Each response goes to the caller as it is sent, from the thread that sends it: the engine's outputs are written
 * straight into the response's memory (the request's {@link io.ingot.api.ResponseAllocator}), with no copy and no
 * batch dimension imposed (the shapes are the response's own). Obtained from {@link Batch#responseSender}; valid,
 * like the batch, only during {@code execute}, and not thread-safe: use it on one thread at a time. A decoupled
 * model's engine that answers after {@code execute} returned (Triton's response factory outlives the request's
 * release) {@link #keepOpen keeps the request open}.
 *
 * <p>The sender of a one-response model (an engine that {@link Engine#respondsPerRequest responds per request})
 * takes exactly one response: {@code send(true)} or {@code sendError(..., true)}; {@code send(false)} is refused, and
 * a request ended without a response ({@link #sendFinal}, or left open when {@code execute} returns) gets an
 * INTERNAL error that says so.
 */
public interface ResponseSender
{
    /**
     * Returns memory for an output of the response being built, written row-major by the engine. An output the
     * request did not ask for gets scratch memory that is discarded. Call it at most once per output and response.
     *
     * @param name  an output name of the model configuration
     * @param shape the output's shape (copied)
     * @return memory of exactly the output's byte size, valid until this response is sent
     * @throws IllegalArgumentException for an unknown output, a {@code BYTES} output, a negative dimension, or an
     *                                  output already allocated for this response
     * @throws IllegalStateException    after the request's final, or when the request's allocator fails
     */
    MemorySegment allocateOutput(String name, long[] shape);

    /**
     * As {@link #allocateOutput(String, long[])}, for outputs whose byte size the shape does not determine
     * ({@code BYTES}: 4-byte little-endian lengths, each followed by its bytes).
     *
     * @param name     an output name of the model configuration
     * @param shape    the output's shape (copied)
     * @param byteSize the output's total byte size
     * @return memory of exactly {@code byteSize} bytes, valid until this response is sent
     * @throws IllegalArgumentException for an unknown output, a negative {@code byteSize}, or an output already
     *                                  allocated for this response
     * @throws IllegalStateException    after the request's final, or when the request's allocator fails
     */
    MemorySegment allocateOutput(String name, long[] shape, long byteSize);

    /**
     * As {@link #allocateOutput(String, long[], long)}, with the data type the engine gives the output, which may
     * differ from the configuration's (Triton's Python backend returns what the model returns: an {@code INT64}
     * output of a {@code TYPE_INT32} configuration reaches the client as {@code INT64}).
     *
     * @param name     an output name of the model configuration
     * @param type     the output's data type
     * @param shape    the output's shape (copied)
     * @param byteSize the output's total byte size
     * @return memory of exactly {@code byteSize} bytes, valid until this response is sent
     * @throws IllegalArgumentException for an unknown output, a negative {@code byteSize}, or an output already
     *                                  allocated for this response
     * @throws IllegalStateException    after the request's final, or when the request's allocator fails
     */
    MemorySegment allocateOutput(String name, DataType type, long[] shape, long byteSize);

    /**
     * Sends the response built so far (the outputs allocated since the last send; possibly none) to the caller now.
     *
     * @param last true when it is the request's final response
     * @throws IllegalStateException after the request's final
     */
    void send(boolean last);

    /**
     * Marks the request complete without a response of its own (Triton's {@code
     * TRITONBACKEND_ResponseFactorySendFlags(FINAL)}); outputs allocated since the last send are discarded.
     *
     * @throws IllegalStateException after the request's final
     */
    void sendFinal();

    /**
     * Refuses the request: sends an INVALID_ARG error as its final response (Triton's
     * {@code TRITONBACKEND_ResponseSend} with an error and FINAL), for a request the engine cannot serve, such as
     * one whose inputs disagree. Outputs allocated since the last send are discarded. A failure of the engine itself
     * is an exception from {@link Engine#execute} instead (INTERNAL, for every open request of the batch).
     *
     * @param message what is wrong with the request, naming the tensor and what was expected
     * @throws IllegalStateException after the request's final
     */
    void refuse(String message);

    /**
     * Sends an error as a response of its own (Triton's {@code TRITONBACKEND_ResponseSend} with an error), final or
     * not: a decoupled model may report a failed step and go on streaming. Outputs allocated since the last send are
     * discarded.
     *
     * @param code    the error's category
     * @param message what went wrong
     * @param last    true when it is the request's final response
     * @throws IllegalStateException after the request's final, or for a non-final error of a one-response model
     */
    void sendError(ErrorCode code, String message, boolean last);

    /**
     * Keeps the request open after {@link Engine#execute} returns, as Triton's response factory outlives the
     * request's release: the runtime neither completes it nor fails it when the batch ends, and the engine ends it
     * itself ({@code send(true)}, {@code sendError(..., true)}, {@link #sendFinal}, {@link #refuse}) through the
     * sender returned, from any thread, one thread at a time. This sender then counts as complete for its batch. The
     * runtime ends a request still open after the engine's {@link Engine#close} with an UNAVAILABLE error (the engine
     * must stop using its senders by then). Statistics count the request when its batch ends.
     *
     * @return a sender for this request that stays valid until its final
     * @throws IllegalStateException after the request's final, or for a model that is not decoupled
     */
    ResponseSender keepOpen();

    /** @return true once the request's final was sent */
    boolean isComplete();

    /**
     * @return true when the caller cancelled the request or the model is stopping: an engine streaming a long
     *         sequence may stop early and send its final (Triton's {@code TRITONBACKEND_ResponseFactoryIsCancelled})
     */
    boolean isCancelled();
}
