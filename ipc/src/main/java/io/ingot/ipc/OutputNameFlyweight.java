package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over a requested-output entry of an INFER frame: {@code uint16 name_length}, 6 reserved bytes, then
 * the name zero-padded to a multiple of 8 (docs/ipc.md, "INFER").
 */
public final class OutputNameFlyweight
{
    /** Offset of {@code name_length} (uint16). */
    public static final int NAME_LENGTH_OFFSET = 0;
    /** Offset of the name. */
    public static final int NAME_OFFSET = 8;

    private MemorySegment buffer;
    private long offset;

    /**
     * @param nameLength bytes of the name
     * @return bytes of the entry
     */
    public static int encodedLength(final int nameLength)
    {
        return NAME_OFFSET + IpcLimits.align8(nameLength);
    }

    /**
     * @param buffer the memory holding the entry
     * @param offset the entry's offset
     * @return this
     */
    public OutputNameFlyweight wrap(final MemorySegment buffer, final long offset)
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

    /** @return the offset of the name in the wrapped memory. */
    public long nameOffset()
    {
        return offset + NAME_OFFSET;
    }

    /**
     * @param name UTF-8 bytes of the output's name
     * @return this
     */
    public OutputNameFlyweight name(final byte[] name)
    {
        buffer.set(SharedMemory.LONG, offset, 0L);
        buffer.set(SharedMemory.SHORT, offset + NAME_LENGTH_OFFSET, (short)name.length);
        FrameText.put(buffer, offset + NAME_OFFSET, name);
        return this;
    }

    /** @return bytes of this entry. */
    public int encodedLength()
    {
        return encodedLength(nameLength());
    }
}
