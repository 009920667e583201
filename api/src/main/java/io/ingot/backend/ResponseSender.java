package io.ingot.backend;

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
 * like the batch, only during {@code execute}, and not thread-safe: use it on one thread at a time.
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

    /** @return true once the request's final was sent */
    boolean isComplete();

    /**
     * @return true when the caller cancelled the request or the model is stopping: an engine streaming a long
     *         sequence may stop early and send its final (Triton's {@code TRITONBACKEND_ResponseFactoryIsCancelled})
     */
    boolean isCancelled();
}
