package io.ingot.backend;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * One input of a batch: every request's rows of that input, contiguous and in request order. A view that is valid
 * only during the {@link Engine#execute} call whose batch it belongs to; not thread-safe (read it on that thread).
 * The engine only reads the memory: for a batch of one it is the caller's own request memory.
 */
public interface BatchInput
{
    /** @return the input's name. */
    String name();

    /** @return its element type. */
    DataType dataType();

    /** @return its rank, including the batch dimension when the model batches. */
    int rank();

    /**
     * @param dimension dimension index
     * @return the size of that dimension (dimension 0 is the total batch size when the model batches)
     */
    long dim(int dimension);

    /** @return a copy of the shape. */
    long[] shape();

    /**
     * @return the bytes, exactly the input's size: staging memory (from the core's pinned allocator), or, for a
     *         batch of one, the request's own memory (native memory, or heap memory when the engine
     *         {@link Engine#acceptsHeapInputs() accepts it})
     */
    MemorySegment data();
}
