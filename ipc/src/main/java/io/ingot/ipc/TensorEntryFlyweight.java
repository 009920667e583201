package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over a tensor entry: an input of an INFER frame or an output of a RESPONSE frame (docs/ipc.md, "Tensor
 * entry"). Entries are variable-length: {@link #encodedLength(int, int)} bytes, 8-byte aligned.
 *
 * <pre>
 *   0  uint16 name_length     2 uint8 datatype   3 uint8 rank   4 reserved
 *   8  int64  offset (file offset of the tensor's first byte)
 *  16  int64  length (bytes)
 *  24  int64  dims[rank]
 *  24 + 8 * rank  name, zero-padded to a multiple of 8
 * </pre>
 */
public final class TensorEntryFlyweight
{
    /** Offset of {@code name_length} (uint16). */
    public static final int NAME_LENGTH_OFFSET = 0;
    /** Offset of {@code datatype} (uint8). */
    public static final int DATATYPE_OFFSET = 2;
    /** Offset of {@code rank} (uint8). */
    public static final int RANK_OFFSET = 3;
    /** Offset of the reserved int32. */
    public static final int RESERVED_OFFSET = 4;
    /** Offset of {@code offset} (int64). */
    public static final int TENSOR_OFFSET_OFFSET = 8;
    /** Offset of {@code length} (int64). */
    public static final int LENGTH_OFFSET = 16;
    /** Offset of {@code dims}. */
    public static final int DIMS_OFFSET = 24;

    private MemorySegment buffer;
    private long offset;

    /**
     * @param rank       the tensor's rank
     * @param nameLength bytes of its name
     * @return bytes of the entry
     */
    public static int encodedLength(final int rank, final int nameLength)
    {
        return DIMS_OFFSET + 8 * rank + IpcLimits.align8(nameLength);
    }

    /**
     * @param buffer the memory holding the entry
     * @param offset the entry's offset in it
     * @return this
     */
    public TensorEntryFlyweight wrap(final MemorySegment buffer, final long offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return bytes of the name. */
    public int nameLength()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + NAME_LENGTH_OFFSET));
    }

    /** @return the datatype code ({@link IpcDataType#code()}). */
    public int dataType()
    {
        return Byte.toUnsignedInt(buffer.get(ValueLayout.JAVA_BYTE, offset + DATATYPE_OFFSET));
    }

    /**
     * @param code the datatype code
     * @return this
     */
    public TensorEntryFlyweight dataType(final int code)
    {
        buffer.set(ValueLayout.JAVA_BYTE, offset + DATATYPE_OFFSET, (byte)code);
        return this;
    }

    /** @return the rank. */
    public int rank()
    {
        return Byte.toUnsignedInt(buffer.get(ValueLayout.JAVA_BYTE, offset + RANK_OFFSET));
    }

    /**
     * Sets the rank; set it before the dims and the name, whose positions depend on it.
     *
     * @param rank the rank, 0..{@link IpcLimits#MAX_RANK}
     * @return this
     */
    public TensorEntryFlyweight rank(final int rank)
    {
        buffer.set(ValueLayout.JAVA_BYTE, offset + RANK_OFFSET, (byte)rank);
        buffer.set(SharedMemory.INT, offset + RESERVED_OFFSET, 0);
        return this;
    }

    /** @return the file offset of the tensor's first byte. */
    public long tensorOffset()
    {
        return buffer.get(SharedMemory.LONG, offset + TENSOR_OFFSET_OFFSET);
    }

    /**
     * @param tensorOffset the file offset of the tensor's first byte
     * @return this
     */
    public TensorEntryFlyweight tensorOffset(final long tensorOffset)
    {
        buffer.set(SharedMemory.LONG, offset + TENSOR_OFFSET_OFFSET, tensorOffset);
        return this;
    }

    /** @return bytes of the tensor. */
    public long length()
    {
        return buffer.get(SharedMemory.LONG, offset + LENGTH_OFFSET);
    }

    /**
     * @param length bytes of the tensor
     * @return this
     */
    public TensorEntryFlyweight length(final long length)
    {
        buffer.set(SharedMemory.LONG, offset + LENGTH_OFFSET, length);
        return this;
    }

    /**
     * @param index dimension index, below {@link #rank()}
     * @return that dimension
     */
    public long dim(final int index)
    {
        return buffer.get(SharedMemory.LONG, offset + DIMS_OFFSET + 8L * index);
    }

    /**
     * @param index dimension index, below {@link #rank()}
     * @param value its size
     * @return this
     */
    public TensorEntryFlyweight dim(final int index, final long value)
    {
        buffer.set(SharedMemory.LONG, offset + DIMS_OFFSET + 8L * index, value);
        return this;
    }

    /** @return the offset of the name in the wrapped memory (depends on the rank). */
    public long nameOffset()
    {
        return offset + DIMS_OFFSET + 8L * rank();
    }

    /**
     * Writes the name after the dims (set the rank first), zero-padded to a multiple of 8.
     *
     * @param name the name's UTF-8 bytes, 1..{@link IpcLimits#MAX_NAME_LENGTH}
     * @return this
     */
    public TensorEntryFlyweight name(final byte[] name)
    {
        buffer.set(SharedMemory.SHORT, offset + NAME_LENGTH_OFFSET, (short)name.length);
        FrameText.put(buffer, nameOffset(), name);
        return this;
    }

    /** @return bytes of this entry, as its rank and name length imply. */
    public int encodedLength()
    {
        return encodedLength(rank(), nameLength());
    }
}
