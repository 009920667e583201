package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * Chooses where a response's output tensors are written, as Triton's response allocator does. The core writes each
 * output byte once, straight into the memory returned here.
 *
 * <p>Called on Ingot's instance threads; implementations must be thread-safe and fast. {@link #release} is called
 * once for every segment {@link #allocate} returned, when the response is closed.
 */
public interface ResponseAllocator
{
    /**
     * Returns memory for one output.
     *
     * @param outputName the output's name
     * @param dataType   its element type
     * @param shape      its shape (a view: do not keep or modify it)
     * @param byteSize   the exact number of bytes the output needs
     * @return a segment of at least {@code byteSize} bytes; the core uses its first {@code byteSize}
     */
    MemorySegment allocate(String outputName, DataType dataType, long[] shape, long byteSize);

    /**
     * Takes back memory returned by {@link #allocate}.
     *
     * @param memory the segment, as returned by {@link #allocate}
     */
    void release(MemorySegment memory);
}
