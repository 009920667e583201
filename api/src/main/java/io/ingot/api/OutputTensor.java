package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One output tensor of a response: name, element type, shape and bytes. A view owned by its
 * {@link InferenceResponse}: valid until the response is closed, and reused with it afterwards (so it may then
 * describe another request's output; never keep it past {@code close()}). The bytes are memory the request's
 * {@link ResponseAllocator} (or the core's default) supplied, exactly the output's size — for a request of a batch on
 * the core's default pool, a view of its rows of the output the batch shares, which stays valid (and is not reused)
 * until this response is closed, whenever the other responses of the batch are closed; the shape includes the batch
 * dimension (this request's batch size) when the model batches.
 *
 * <p>Threads: not thread-safe; the response's owner reads it. The core writes it before it delivers the response.
 */
public final class OutputTensor
{
    private String name;
    private DataType dataType;
    private long[] shape = new long[4];
    private int rank;
    private MemorySegment data;
    private MemorySegment allocation;
    private ResponseAllocator owner;

    OutputTensor()
    {
    }

    void set(final String name, final DataType dataType, final long[] shape, final int rank,
        final MemorySegment data, final MemorySegment allocation, final ResponseAllocator owner)
    {
        this.allocation = allocation;
        this.name = name;
        this.dataType = dataType;
        if (this.shape.length < rank)
        {
            this.shape = new long[rank];
        }
        System.arraycopy(shape, 0, this.shape, 0, rank);
        this.rank = rank;
        this.data = data;
        this.owner = owner;
    }

    void release()
    {
        if (owner != null && allocation != null)
        {
            owner.release(allocation);
        }
        owner = null;
        data = null;
        allocation = null;
    }

    /** @return the output's name. */
    public String name()
    {
        return name;
    }

    /** @return its element type. */
    public DataType dataType()
    {
        return dataType;
    }

    /** @return its rank. */
    public int rank()
    {
        return rank;
    }

    /**
     * @param dimension dimension index
     * @return the size of that dimension
     */
    public long dim(final int dimension)
    {
        if (dimension < 0 || dimension >= rank)
        {
            throw new IndexOutOfBoundsException("dimension " + dimension + " of output '" + name + "' with rank "
                + rank);
        }
        return shape[dimension];
    }

    /** @return a copy of its shape. */
    public long[] shape()
    {
        return Arrays.copyOf(shape, rank);
    }

    /**
     * @return its bytes, row-major; valid until the response is closed
     * @throws IllegalStateException when the response was closed and this tensor not yet reused
     */
    public MemorySegment data()
    {
        if (data == null)
        {
            throw new IllegalStateException("output '" + name + "' was released: its response is closed");
        }
        return data;
    }

    @Override
    public String toString()
    {
        return name + ":" + dataType + Arrays.toString(shape());
    }
}
