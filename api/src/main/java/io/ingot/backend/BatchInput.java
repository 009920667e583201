package io.ingot.backend;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * One input of a batch: every request's rows of that input, contiguous and in request order.
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

    /** @return the bytes: staging memory, or the request's own memory for a batch of one. */
    MemorySegment data();
}
