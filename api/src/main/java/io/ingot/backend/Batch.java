package io.ingot.backend;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;

/**
 * A batch as an engine sees it: assembled inputs and a way to obtain output memory. Valid only during
 * {@link Engine#execute}: the runtime reuses the object, its inputs and its staging memory for the instance's next
 * batch.
 *
 * <p>When the model batches ({@code max_batch_size > 0}) every input and output has a leading batch dimension equal
 * to {@link #batchSize()}, and the other dimensions are those of every request in it (the scheduler batches only
 * requests whose shapes agree). Otherwise the batch holds exactly one request and shapes are the request's.
 *
 * <p>A decoupled model ({@code model_transaction_policy { decoupled: true }}) answers through
 * {@link #responseSender(int)} instead, zero or many responses per request; {@link #allocateOutput} is then refused.
 * So does an engine that {@link Engine#respondsPerRequest() responds per request}, with exactly one response each.
 *
 * <p>Threads: not thread-safe; call its methods on the thread running {@code execute}. The memory it returns (inputs
 * and outputs) may be read and written by threads the engine itself runs (an engine's intra-op pool, say) until
 * {@code execute} returns.
 */
public interface Batch
{
    /** @return the model configuration, normalized (an immutable protobuf message). */
    ModelConfig config();

    /** @return the total batch size: the sum of the requests' batch sizes ({@code max(1, bs)} each). */
    int batchSize();

    /** @return the number of requests in the batch. */
    int requestCount();

    /** @return the number of inputs present in the batch (optional inputs the requests omit are absent). */
    int inputCount();

    /**
     * @param index input index, {@code 0 <= index < inputCount()}
     * @return the input
     */
    BatchInput input(int index);

    /**
     * @param name input name
     * @return the input, or {@code null} when the batch does not carry it (an optional input)
     * @throws IllegalArgumentException when the model has no input of that name
     */
    BatchInput input(String name);

    /**
     * @param name output name
     * @return true when some request of the batch asked for this output
     */
    boolean isOutputRequested(String name);

    /**
     * Returns memory for an output of the given shape, into which the engine writes the output row-major. For a
     * batch of one request that asked for this output, this is the response's own memory from the request's
     * {@link io.ingot.api.ResponseAllocator} (no copy later; heap memory when that allocator returns heap memory);
     * otherwise staging memory (from the core's pinned allocator) that the runtime copies into each response once
     * after {@code execute} returns.
     *
     * <p>Call it at most once per output and batch, and write every byte: the contents are unspecified (recycled
     * memory). Outputs no request asked for ({@link #isOutputRequested}) need not be allocated.
     *
     * @param name  an output name of the model configuration
     * @param shape the output's shape, with the batch dimension when the model batches (copied)
     * @return memory of exactly the output's byte size, valid until {@code execute} returns
     * @throws IllegalArgumentException for an unknown output, a {@code BYTES} output, a negative dimension or a
     *                                  batch dimension that disagrees with {@link #batchSize()}
     * @throws IllegalStateException    when the request's allocator returns {@code null} or too little memory
     */
    MemorySegment allocateOutput(String name, long[] shape);

    /**
     * Returns memory for an output whose byte size the shape does not determine: {@code BYTES} outputs, whose
     * elements are 4-byte little-endian lengths followed by their bytes.
     *
     * Otherwise as {@link #allocateOutput(String, long[])}.
     *
     * @param name     an output name of the model configuration
     * @param shape    the output's shape, with the batch dimension when the model batches (copied)
     * @param byteSize the output's total byte size
     * @return memory of exactly {@code byteSize} bytes, valid until {@code execute} returns
     * @throws IllegalArgumentException for an unknown output, a negative {@code byteSize} or a batch dimension that
     *                                  disagrees with {@link #batchSize()}
     * @throws IllegalStateException    when the request's allocator returns {@code null} or too little memory
     */
    MemorySegment allocateOutput(String name, long[] shape, long byteSize);

    /**
     * What request {@code r} carries besides its inputs: id, custom parameters, correlation ID and sequence flags,
     * timeout, requested outputs, cancellation. Requests are in batch order, as for {@link #responseSender}.
     *
     * @param request the request's index, {@code 0 <= request < requestCount()}
     * @return a view of it, valid until {@code execute} returns
     * @throws UnsupportedOperationException when this batch cannot tell its requests apart (a test double)
     * @throws IndexOutOfBoundsException     for an index outside the batch
     */
    default BatchRequest request(final int request)
    {
        throw new UnsupportedOperationException("this batch of model '" + config().getName() + "' does not describe "
            + "its requests");
    }

    /**
     * The sender of the responses of one request of a decoupled model's batch (see {@link ResponseSender}). Requests
     * are in batch order, and request {@code r} holds the rows after those of requests {@code 0..r-1} (each
     * {@code max(1, its batch size)} rows). The same sender is returned for the same request during one
     * {@code execute}.
     *
     * @param request the request's index, {@code 0 <= request < requestCount()}
     * @return its response sender, valid until {@code execute} returns
     * @throws IllegalStateException     when the model is not decoupled and its engine does not
     *                                   {@link Engine#respondsPerRequest() respond per request} (it answers with
     *                                   {@link #allocateOutput})
     * @throws IndexOutOfBoundsException for an index outside the batch
     */
    default ResponseSender responseSender(final int request)
    {
        throw new IllegalStateException("model '" + config().getName() + "' is not decoupled: write its outputs with "
            + "allocateOutput, one response per request");
    }
}
