package io.ingot.ipc.client;

import io.ingot.ipc.IpcDataType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A tensor in the input area of an {@link IpcClient}'s slab: write its bytes through {@link #segment()}, pass it to
 * {@link IpcRequest#addInput(String, IpcTensor)}, and {@link #close()} it once no request in flight uses it. The
 * server reads it in place; do not change it while a request that uses it is in flight.
 */
public final class IpcTensor implements AutoCloseable
{
    private final IpcClient owner;
    private final IpcDataType dataType;
    private final long[] shape;
    private final long offset;
    private final long byteLength;
    private final MemorySegment segment;
    private boolean freed;

    IpcTensor(final IpcClient owner, final IpcDataType dataType, final long[] shape, final long offset,
        final long byteLength, final MemorySegment segment)
    {
        this.owner = owner;
        this.dataType = dataType;
        this.shape = shape;
        this.offset = offset;
        this.byteLength = byteLength;
        this.segment = segment;
    }

    /** @return the element type. */
    public IpcDataType dataType()
    {
        return dataType;
    }

    /** @return a copy of the shape. */
    public long[] shape()
    {
        return shape.clone();
    }

    long[] shapeView()
    {
        return shape;
    }

    /** @return the file offset of the first byte (what frames carry). */
    public long offset()
    {
        return offset;
    }

    /** @return bytes of the tensor. */
    public long byteLength()
    {
        return byteLength;
    }

    /** @return the tensor's bytes in shared memory, little-endian, row-major. */
    public MemorySegment segment()
    {
        if (freed)
        {
            throw new IllegalStateException("tensor at offset " + offset + " was freed");
        }
        return segment;
    }

    /** @return whether {@link #close()} was called. */
    public boolean isFreed()
    {
        return freed;
    }

    /** Returns the space to the client's allocator. Idempotent. */
    @Override
    public void close()
    {
        if (!freed)
        {
            freed = true;
            owner.free(this);
        }
    }

    @Override
    public String toString()
    {
        return "IpcTensor{" + dataType + Arrays.toString(shape) + ", offset=" + offset + ", bytes=" + byteLength + '}';
    }
}
