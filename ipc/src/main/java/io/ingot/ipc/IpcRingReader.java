package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

import static org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH;
import static org.agrona.concurrent.ringbuffer.RingBuffer.PADDING_MSG_TYPE_ID;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.HEAD_POSITION_OFFSET;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TAIL_POSITION_OFFSET;
import static org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TRAILER_LENGTH;

/**
 * The consumer side of a one-to-one ring in Agrona's {@code OneToOneRingBuffer} format, over shared memory
 * (docs/ipc.md, "Rings"). Exactly one thread of one process may read a ring.
 *
 * <p>Unlike Agrona's reader this one does not trust the producer: every record header is checked to lie inside the
 * ring before the record is handed out, and an impossible one raises {@link IpcRingCorruptException} (the ring
 * cannot be resynchronised after that).
 */
public final class IpcRingReader
{
    /** Receives one record; the body is valid only during the call. */
    @FunctionalInterface
    public interface Handler
    {
        /**
         * @param type   the record type
         * @param buffer the ring's memory
         * @param offset index of the body in {@code buffer}
         * @param length bytes of the body
         */
        void onRecord(int type, MemorySegment buffer, int offset, int length);
    }

    private final MemorySegment buffer;
    private final int capacity;
    private final long headIndex;
    private final long tailIndex;

    /**
     * @param ring the ring's memory: a power-of-two capacity followed by the 768-byte trailer, 8-byte aligned
     */
    public IpcRingReader(final MemorySegment ring)
    {
        this.capacity = checkRing(ring);
        this.buffer = ring;
        this.headIndex = capacity + HEAD_POSITION_OFFSET;
        this.tailIndex = capacity + TAIL_POSITION_OFFSET;
    }

    /** @return bytes of records the ring holds, without trailer. */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Hands out up to {@code limit} records, then publishes the new head so that the producer may reuse their
     * space (also when the handler throws).
     *
     * @param handler receives each record other than padding
     * @param limit   the most records to hand out
     * @return the number of records handed out
     * @throws IpcRingCorruptException when a record header is impossible
     */
    public int read(final Handler handler, final int limit)
    {
        final long head = buffer.get(SharedMemory.LONG, headIndex);
        final int headAt = (int)head & (capacity - 1);
        final int contiguous = capacity - headAt;
        int bytesRead = 0;
        int records = 0;
        try
        {
            while (bytesRead < contiguous && records < limit)
            {
                final int recordIndex = headAt + bytesRead;
                final int length = SharedMemory.getIntAcquire(buffer, recordIndex);
                if (length <= 0)
                {
                    break;
                }
                final int room = contiguous - bytesRead;
                if (length < HEADER_LENGTH || length > room || IpcLimits.align8(length) > room)
                {
                    throw new IpcRingCorruptException("ring record at index " + recordIndex + " has length "
                        + length + "; a record needs " + HEADER_LENGTH + ".." + room + " bytes there");
                }
                bytesRead += IpcLimits.align8(length);
                final int type = buffer.get(SharedMemory.INT, recordIndex + 4);
                if (type == PADDING_MSG_TYPE_ID)
                {
                    continue;
                }
                records++;
                handler.onRecord(type, buffer, recordIndex + HEADER_LENGTH, length - HEADER_LENGTH);
            }
        }
        finally
        {
            if (bytesRead > 0)
            {
                SharedMemory.putLongRelease(buffer, headIndex, head + bytesRead);
            }
        }
        return records;
    }

    /** @return whether a published record (or padding) waits at the head. */
    public boolean hasRecord()
    {
        final long head = buffer.get(SharedMemory.LONG, headIndex);
        return SharedMemory.getIntAcquire(buffer, (int)head & (capacity - 1)) > 0;
    }

    /** @return the consumer position: bytes consumed since the ring was reset. */
    public long headPosition()
    {
        return SharedMemory.getLongAcquire(buffer, headIndex);
    }

    /** @return the producer position as the producer last published it. */
    public long tailPosition()
    {
        return SharedMemory.getLongAcquire(buffer, tailIndex);
    }

    /**
     * Zeroes a ring, records and trailer: an empty ring with both positions at 0. Only while nobody uses it.
     *
     * @param ring the ring's memory
     */
    public static void reset(final MemorySegment ring)
    {
        ring.fill((byte)0);
    }

    /**
     * @param ring a ring's memory
     * @return its capacity
     * @throws IllegalArgumentException unless the capacity is a power of two and the memory 8-byte aligned
     */
    static int checkRing(final MemorySegment ring)
    {
        final long capacity = ring.byteSize() - TRAILER_LENGTH;
        if (capacity < 2L * HEADER_LENGTH || capacity > Integer.MAX_VALUE || Long.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("a ring needs a power-of-two capacity plus the " + TRAILER_LENGTH
                + "-byte trailer; got " + ring.byteSize() + " bytes");
        }
        if ((ring.address() & 7) != 0)
        {
            throw new IllegalArgumentException("a ring must be 8-byte aligned; address is 0x"
                + Long.toHexString(ring.address()));
        }
        return (int)capacity;
    }
}
