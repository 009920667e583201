package io.ingot.ipc.client;

import io.ingot.ipc.IpcDataType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One output of an {@link IpcResponse}: a view of the output area of the client's slab, valid until the response is
 * closed.
 */
public final class IpcOutput
{
    private final IpcResponse response;
    private final String name;
    private final IpcDataType dataType;
    private final long[] shape;
    private final long offset;
    private final long byteLength;
    private final MemorySegment segment;

    IpcOutput(final IpcResponse response, final String name, final IpcDataType dataType, final long[] shape,
        final long offset, final long byteLength, final MemorySegment segment)
    {
        this.response = response;
        this.name = name;
        this.dataType = dataType;
        this.shape = shape;
        this.offset = offset;
        this.byteLength = byteLength;
        this.segment = segment;
    }

    /** @return the output's name. */
    public String name()
    {
        return name;
    }

    /** @return its element type. */
    public IpcDataType dataType()
    {
        return dataType;
    }

    /** @return a copy of its shape. */
    public long[] shape()
    {
        return shape.clone();
    }

    /** @return the file offset of its first byte. */
    public long offset()
    {
        return offset;
    }

    /** @return its bytes. */
    public long byteLength()
    {
        return byteLength;
    }

    /** @return its bytes in shared memory; valid until the response is closed. */
    public MemorySegment segment()
    {
        response.checkOpen();
        return segment;
    }

    @Override
    public String toString()
    {
        return name + ":" + dataType + Arrays.toString(shape);
    }
}
