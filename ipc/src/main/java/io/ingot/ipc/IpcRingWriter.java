package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

import static org.agrona.concurrent.ringbuffer.RecordDescriptor.ALIGNMENT;
import static org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH;
import static org.agrona.concurrent.ringbuffer.RingBuffer.PADDING_MSG_TYPE_ID;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.HEAD_POSITION_OFFSET;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TAIL_POSITION_OFFSET;

/**
 * The producer side of a one-to-one ring in Agrona's {@code OneToOneRingBuffer} format, over shared memory
 * (docs/ipc.md, "Rings"). Exactly one thread of one process may write a ring.
 *
 * <p>Zero-copy use: {@link #tryClaim} space for a record, write its body in place at the returned index, then
 * {@link #commit} (or {@link #abort}) it:
 * <pre>{@code
 * int index = writer.tryClaim(TYPE, length);
 * if (index > 0)
 * {
 *     flyweight.wrap(writer.buffer(), index)...;
 *     writer.commit(index);
 * }
 * }</pre>
 *
 * <p>The consumer's head position lives in the same shared memory and may have been damaged by a faulty peer;
 * the writer then throws {@link IpcRingCorruptException} instead of overwriting unread records.
 */
public final class IpcRingWriter
{
    /** Returned by {@link #tryClaim} when the ring has no room now (back-pressure: retry later). */
    public static final int INSUFFICIENT_CAPACITY = -2;

    private final MemorySegment buffer;
    private final int capacity;
    private final int maxMessageLength;
    private final long tailIndex;
    private final long headCacheIndex;
    private final long headIndex;

    /**
     * @param ring the ring's memory: a power-of-two capacity followed by the 768-byte trailer, 8-byte aligned
     */
    public IpcRingWriter(final MemorySegment ring)
    {
        this.capacity = IpcRingReader.checkRing(ring);
        this.buffer = ring;
        this.maxMessageLength = capacity >> 3;
        this.tailIndex = capacity + TAIL_POSITION_OFFSET;
        this.headCacheIndex = capacity + HEAD_CACHE_POSITION_OFFSET;
        this.headIndex = capacity + HEAD_POSITION_OFFSET;
    }

    /** @return the ring's memory, into which claimed bodies are written. */
    public MemorySegment buffer()
    {
        return buffer;
    }

    /** @return bytes of records the ring holds, without trailer. */
    public int capacity()
    {
        return capacity;
    }

    /** @return the longest body one record may have: an eighth of the capacity, as in Agrona. */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * Claims space for one record.
     *
     * @param type   the record type, {@code > 0}
     * @param length bytes of the body, {@code 0..maxMessageLength()}
     * @return the index of the body in {@link #buffer()}, or {@link #INSUFFICIENT_CAPACITY}
     * @throws IpcRingCorruptException when the consumer's head position is impossible
     */
    public int tryClaim(final int type, final int length)
    {
        if (type <= 0)
        {
            throw new IllegalArgumentException("record type must be > 0, was " + type);
        }
        if (length < 0 || length > maxMessageLength)
        {
            throw new IllegalArgumentException("record body of " + length + " bytes; this ring takes 0.."
                + maxMessageLength);
        }
        final int recordLength = length + HEADER_LENGTH;
        final int recordIndex = claim(recordLength);
        if (recordIndex == INSUFFICIENT_CAPACITY)
        {
            return INSUFFICIENT_CAPACITY;
        }
        SharedMemory.putIntRelease(buffer, recordIndex, -recordLength);
        buffer.set(SharedMemory.INT, recordIndex + 4, type);
        return recordIndex + HEADER_LENGTH;
    }

    /**
     * Publishes a claimed record: its body becomes visible to the consumer, then the record itself.
     *
     * @param index the index {@link #tryClaim} returned
     */
    public void commit(final int index)
    {
        final int recordIndex = claimedRecord(index);
        SharedMemory.putIntRelease(buffer, recordIndex, -buffer.get(SharedMemory.INT, recordIndex));
    }

    /**
     * Gives up a claimed record: it becomes padding that the consumer skips.
     *
     * @param index the index {@link #tryClaim} returned
     */
    public void abort(final int index)
    {
        final int recordIndex = claimedRecord(index);
        buffer.set(SharedMemory.INT, recordIndex + 4, PADDING_MSG_TYPE_ID);
        SharedMemory.putIntRelease(buffer, recordIndex, -buffer.get(SharedMemory.INT, recordIndex));
    }

    /**
     * Copies a body into a new record and publishes it.
     *
     * @param type   record type, {@code > 0}
     * @param source the body's memory
     * @param offset offset of the body in {@code source}
     * @param length bytes of the body
     * @return false when the ring has no room now
     */
    public boolean write(final int type, final MemorySegment source, final long offset, final int length)
    {
        final int index = tryClaim(type, length);
        if (index == INSUFFICIENT_CAPACITY)
        {
            return false;
        }
        MemorySegment.copy(source, offset, buffer, index, length);
        commit(index);
        return true;
    }

    /** @return the producer position: bytes written since the ring was reset. */
    public long tailPosition()
    {
        return SharedMemory.getLongAcquire(buffer, tailIndex);
    }

    /** @return the consumer position as the consumer last published it. */
    public long headPosition()
    {
        return SharedMemory.getLongAcquire(buffer, headIndex);
    }

    /**
     * Bytes of the ring not holding unread records. Safe from any thread: it takes the tail between two equal reads
     * of the head, so that producer and consumer moving meanwhile cannot make the answer impossible (as Agrona's
     * {@code size()} does); when the head keeps moving, it answers 0, the cautious value.
     *
     * @return free bytes
     * @throws IpcRingCorruptException when the consumer's head position is impossible
     */
    public int freeBytes()
    {
        for (int attempt = 0; attempt < 16; attempt++)
        {
            final long head = SharedMemory.getLongAcquire(buffer, headIndex);
            final long tail = SharedMemory.getLongAcquire(buffer, tailIndex);
            if (SharedMemory.getLongAcquire(buffer, headIndex) == head)
            {
                return capacity - used(tail, head);
            }
        }
        return 0;
    }

    private int claim(final int recordLength)
    {
        final int aligned = IpcLimits.align8(recordLength);
        final int required = aligned + HEADER_LENGTH;
        final int mask = capacity - 1;

        long head = buffer.get(SharedMemory.LONG, headCacheIndex);
        final long tail = buffer.get(SharedMemory.LONG, tailIndex);
        if (required > capacity - used(tail, head))
        {
            head = SharedMemory.getLongAcquire(buffer, headIndex);
            if (required > capacity - used(tail, head))
            {
                return INSUFFICIENT_CAPACITY;
            }
            buffer.set(SharedMemory.LONG, headCacheIndex, head);
        }

        final int recordIndex = (int)tail & mask;
        final int toEnd = capacity - recordIndex;
        if (aligned == toEnd)
        {
            // The record ends exactly at the end: the next one starts at 0, whose header must read as empty.
            SharedMemory.putLongRelease(buffer, tailIndex, tail + aligned);
            buffer.set(SharedMemory.LONG, 0, 0L);
            return recordIndex;
        }

        int writeIndex = recordIndex;
        long nextTail = tail + aligned;
        int padding = 0;
        if (required > toEnd)
        {
            // Records never wrap: pad to the end and start again at 0, if the consumer has left room there.
            writeIndex = 0;
            int headAt = (int)head & mask;
            if (required > headAt)
            {
                head = SharedMemory.getLongAcquire(buffer, headIndex);
                used(tail, head);
                headAt = (int)head & mask;
                if (required > headAt)
                {
                    writeIndex = INSUFFICIENT_CAPACITY;
                    nextTail = tail;
                }
                buffer.set(SharedMemory.LONG, headCacheIndex, head);
            }
            padding = toEnd;
            nextTail += padding;
        }

        SharedMemory.putLongRelease(buffer, tailIndex, nextTail);
        if (padding != 0)
        {
            buffer.set(SharedMemory.LONG, 0, 0L);
            buffer.set(SharedMemory.INT, recordIndex + 4, PADDING_MSG_TYPE_ID);
            SharedMemory.putIntRelease(buffer, recordIndex, padding);
        }
        if (writeIndex != INSUFFICIENT_CAPACITY)
        {
            // The header after this record must read as empty until the next record is published there.
            buffer.set(SharedMemory.LONG, writeIndex + aligned, 0L);
        }
        return writeIndex;
    }

    private int used(final long tail, final long head)
    {
        final long used = tail - head;
        if (used < 0 || used > capacity)
        {
            throw new IpcRingCorruptException("ring consumer position " + head + " is impossible for producer "
                + "position " + tail + " and capacity " + capacity);
        }
        return (int)used;
    }

    private int claimedRecord(final int index)
    {
        final int recordIndex = index - HEADER_LENGTH;
        if (recordIndex < 0 || recordIndex > capacity - HEADER_LENGTH || (recordIndex & (ALIGNMENT - 1)) != 0)
        {
            throw new IllegalArgumentException("invalid claimed index " + index);
        }
        if (buffer.get(SharedMemory.INT, recordIndex) >= 0)
        {
            throw new IllegalStateException("record at index " + index + " was not claimed or is already "
                + "committed or aborted");
        }
        return recordIndex;
    }
}
