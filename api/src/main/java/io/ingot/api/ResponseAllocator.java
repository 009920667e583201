package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * Chooses where a response's output tensors are written, as Triton's response allocator does. The core writes each
 * output byte once, straight into the memory returned here: for a request executed alone the engine writes into it;
 * for a request of a larger batch the instance copies the request's rows into it after the engine ran.
 *
 * <p>Shared batch outputs: this contract is what an allocator of the request's own, or any other core default set
 * with {@link CoreOptions.Builder#responseAllocator}, gets: one {@code allocate} per output of each response. Only for
 * the core's own pooled allocator (the runtime's {@code PooledResponseAllocator}, the default when none is set) does
 * the core go further: when every request of a batch uses it, each requested output (not a {@code BYTES} one) is
 * allocated once for the whole batch, the engine writes it in place, and each response's {@link OutputTensor#data()}
 * is a view of that request's rows of it; the memory returns to the pool when the last response holding such a view
 * is closed. Nothing changes for the response's owner (the view is valid until its response is closed, and exactly
 * the output's size), except that it is aligned to its element size rather than to 64 bytes. An allocator cannot opt
 * in: memory shared between responses must be owned by the core, which alone counts who still holds it.
 *
 * <p>Threads: implementations must be thread-safe, and fast (they run on the serving path). {@link #allocate} is
 * called on Ingot's instance threads, concurrently when several instances (or, for the default allocator of
 * {@link CoreOptions}, several models) serve at once. {@link #release} is called on the thread that closes the
 * response, or on an instance thread when the request fails after its outputs were allocated.
 *
 * <p>Ownership: a segment returned by {@code allocate} is in use (written by the core, then read by the response's
 * owner) until it is passed to {@code release}, once, when its response is closed or its request has failed.
 * Return native (off-heap) memory readable and writable from any thread: engines that hand the address to native
 * code cannot use heap memory and fail the batch, and the ONNX backend copies heap memory once more.
 */
public interface ResponseAllocator
{
    /**
     * Returns memory for one output.
     *
     * @param outputName the output's name
     * @param dataType   its element type
     * @param shape      its shape, with this request's batch dimension when the model batches (a view: do not keep
     *                   or modify it)
     * @param byteSize   the exact number of bytes the output needs
     * @return a segment of at least {@code byteSize} bytes, contents unspecified; the core uses its first
     *         {@code byteSize}. A {@code null} or smaller segment fails the request with an INTERNAL error naming the
     *         output and both sizes
     */
    MemorySegment allocate(String outputName, DataType dataType, long[] shape, long byteSize);

    /**
     * Takes back memory returned by {@link #allocate}; the core no longer touches it.
     *
     * @param memory the segment, as returned by {@link #allocate} (the whole segment, not the slice the output used)
     */
    void release(MemorySegment memory);
}
