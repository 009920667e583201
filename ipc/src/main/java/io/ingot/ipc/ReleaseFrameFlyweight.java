package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over a RELEASE frame (record type {@link #TYPE} on a request ring; docs/ipc.md, "RELEASE"): outputs of
 * earlier responses that the client is done with.
 *
 * <pre>
 *   0 uint32 count   4 reserved   8 count x { int64 offset, int64 length }
 * </pre>
 */
public final class ReleaseFrameFlyweight
{
    /** Record type of RELEASE frames. */
    public static final int TYPE = 2;

    /** Offset of {@code count} (uint32). */
    public static final int COUNT_OFFSET = 0;
    /** Offset of the first entry. */
    public static final int ENTRIES_OFFSET = 8;
    /** Bytes of one entry. */
    public static final int ENTRY_LENGTH = 16;

    private MemorySegment buffer;
    private long offset;

    /**
     * @param count entries
     * @return bytes of a frame with that many entries
     */
    public static int encodedLength(final int count)
    {
        return ENTRIES_OFFSET + count * ENTRY_LENGTH;
    }

    /**
     * @param buffer the memory holding the frame
     * @param offset the frame body's offset
     * @return this
     */
    public ReleaseFrameFlyweight wrap(final MemorySegment buffer, final long offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return the number of entries. */
    public int count()
    {
        return buffer.get(SharedMemory.INT, offset + COUNT_OFFSET);
    }

    /**
     * @param count the number of entries
     * @return this
     */
    public ReleaseFrameFlyweight count(final int count)
    {
        buffer.set(SharedMemory.INT, offset + COUNT_OFFSET, count);
        buffer.set(SharedMemory.INT, offset + COUNT_OFFSET + 4, 0);
        return this;
    }

    /**
     * @param index entry index
     * @return that entry's file offset
     */
    public long entryOffset(final int index)
    {
        return buffer.get(SharedMemory.LONG, offset + ENTRIES_OFFSET + (long)index * ENTRY_LENGTH);
    }

    /**
     * @param index entry index
     * @return that entry's length
     */
    public long entryLength(final int index)
    {
        return buffer.get(SharedMemory.LONG, offset + ENTRIES_OFFSET + (long)index * ENTRY_LENGTH + 8);
    }

    /**
     * @param index        entry index
     * @param tensorOffset the output's file offset
     * @param length       the output's length
     * @return this
     */
    public ReleaseFrameFlyweight entry(final int index, final long tensorOffset, final long length)
    {
        final long at = offset + ENTRIES_OFFSET + (long)index * ENTRY_LENGTH;
        buffer.set(SharedMemory.LONG, at, tensorOffset);
        buffer.set(SharedMemory.LONG, at + 8, length);
        return this;
    }
}
