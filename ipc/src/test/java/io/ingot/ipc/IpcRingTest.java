package io.ingot.ipc;

import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

class IpcRingTest
{
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void close()
    {
        arena.close();
    }

    private MemorySegment ring(final int capacity)
    {
        return arena.allocate(capacity + RingBufferDescriptor.TRAILER_LENGTH, 64);
    }

    private record Received(int type, byte[] body)
    {
    }

    private static List<Received> drain(final IpcRingReader reader)
    {
        final List<Received> received = new ArrayList<>();
        while (reader.read((type, buffer, offset, length) ->
            received.add(new Received(type, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))), 100) > 0)
        {
            // Keep reading: one call hands out records up to the end of the ring only.
        }
        return received;
    }

    private static byte[] body(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed * 31 + i);
        }
        return bytes;
    }

    @Test
    void recordsArriveInOrderWithTheirTypesAndBodies()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        final IpcRingReader reader = new IpcRingReader(memory);
        for (int i = 0; i < 3; i++)
        {
            assertTrue(writer.write(i + 1, MemorySegment.ofArray(body(5 + i * 9, i)), 0, 5 + i * 9));
        }
        final List<Received> received = drain(reader);
        assertEquals(3, received.size());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(i + 1, received.get(i).type());
            assertArrayEquals(body(5 + i * 9, i), received.get(i).body());
        }
        assertEquals(writer.tailPosition(), reader.headPosition(), "the consumer caught up with the producer");
        assertFalse(reader.hasRecord());
    }

    @Test
    void recordsNeverWrapAroundTheEndButArePaddedIntact()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        final IpcRingReader reader = new IpcRingReader(memory);
        final Random random = new Random(7);
        int sent = 0;
        int received = 0;
        for (int round = 0; round < 2_000; round++)
        {
            final int length = random.nextInt(writer.maxMessageLength() + 1);
            if (writer.write(1, MemorySegment.ofArray(body(length, sent)), 0, length))
            {
                sent++;
            }
            for (final Received record : drain(reader))
            {
                assertArrayEquals(body(record.body().length, received), record.body(), "record " + received);
                received++;
            }
        }
        assertEquals(sent, received);
        assertTrue(writer.tailPosition() > 20 * 1024, "the producer went round the ring many times");
    }

    @Test
    void aFullRingPushesBackUntilTheConsumerFreesSpace()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        final IpcRingReader reader = new IpcRingReader(memory);
        int written = 0;
        while (writer.tryClaim(1, 100) != IpcRingWriter.INSUFFICIENT_CAPACITY)
        {
            // The claim reserved space; publishing it keeps the ring consistent.
            written++;
            assertTrue(written < 100, "a 1 KiB ring cannot take 100 records of 108 bytes");
        }
        assertTrue(written >= 8, "eight 112-byte records fit into 1024 bytes before the end, got " + written);
        assertFalse(reader.hasRecord(), "claimed but uncommitted records are invisible");
    }

    @Test
    void committedClaimsAreReadAndAbortedClaimsAreSkipped()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        final IpcRingReader reader = new IpcRingReader(memory);
        final int aborted = writer.tryClaim(7, 16);
        writer.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, aborted, 111L);
        writer.abort(aborted);
        final int kept = writer.tryClaim(9, 8);
        writer.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, kept, 222L);
        assertEquals(0, reader.read((t, b, o, l) -> fail("the aborted record is padding, the other uncommitted"),
            10));
        writer.commit(kept);
        final List<Received> received = drain(reader);
        assertEquals(1, received.size());
        assertEquals(9, received.getFirst().type());
        assertEquals(222L, MemorySegment.ofArray(received.getFirst().body()).get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        assertThrows(IllegalStateException.class, () -> writer.commit(kept), "a record commits once");
    }

    @Test
    void theReaderRefusesARecordLengthOutsideTheRing()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        assertTrue(writer.write(1, MemorySegment.ofArray(new byte[8]), 0, 8));
        memory.set(ValueLayout.JAVA_INT, 0, 4096);
        final IpcRingCorruptException tooLong = assertThrows(IpcRingCorruptException.class,
            () -> new IpcRingReader(memory).read((t, b, o, l) -> fail("must not hand out a corrupt record"), 10));
        assertTrue(tooLong.getMessage().contains("length 4096"), tooLong.getMessage());
        memory.set(ValueLayout.JAVA_INT, 0, 3);
        assertThrows(IpcRingCorruptException.class,
            () -> new IpcRingReader(memory).read((t, b, o, l) -> fail("must not hand out a corrupt record"), 10));
    }

    @Test
    void theWriterRefusesAnImpossibleConsumerPosition()
    {
        final MemorySegment memory = ring(1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        assertTrue(writer.write(1, MemorySegment.ofArray(new byte[8]), 0, 8));
        memory.set(ValueLayout.JAVA_LONG, 1024 + RingBufferDescriptor.HEAD_POSITION_OFFSET, 1L << 40);
        memory.set(ValueLayout.JAVA_LONG, 1024 + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET, 1L << 40);
        assertThrows(IpcRingCorruptException.class, () -> writer.tryClaim(1, 8));
    }

    @Test
    void rejectsRingsThatAreNotAPowerOfTwoPlusTheTrailer()
    {
        assertThrows(IllegalArgumentException.class, () -> new IpcRingWriter(arena.allocate(1000 + 768, 64)));
        assertThrows(IllegalArgumentException.class, () -> new IpcRingReader(arena.allocate(1000, 64)));
    }

    @Test
    void oneProducerThreadAndOneConsumerThreadExchangeEveryRecordIntactWhileAThirdWatchesTheRoom() throws Exception
    {
        final MemorySegment memory = ring(64 * 1024);
        final IpcRingWriter writer = new IpcRingWriter(memory);
        final IpcRingReader reader = new IpcRingReader(memory);
        final int records = 200_000;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread producer = Thread.ofPlatform().start(() ->
        {
            final Random random = new Random(11);
            for (long seq = 0; seq < records && failure.get() == null; )
            {
                final int length = 8 + random.nextInt(200) * 8;
                final int index = writer.tryClaim(1, length);
                if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
                {
                    Thread.onSpinWait();
                    continue;
                }
                for (int i = 0; i < length; i += 8)
                {
                    writer.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, index + i, seq * 1_000 + i);
                }
                writer.commit(index);
                seq++;
            }
        });
        final Thread observer = Thread.ofPlatform().start(() ->
        {
            // The server checks a response ring's room from a thread that neither writes nor reads it.
            while (producer.isAlive() && failure.get() == null)
            {
                try
                {
                    final int free = writer.freeBytes();
                    if (free < 0 || free > writer.capacity())
                    {
                        failure.compareAndSet(null, new AssertionError("free bytes " + free));
                    }
                }
                catch (final IpcRingCorruptException ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }
        });
        final long[] next = {0};
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (next[0] < records && failure.get() == null)
        {
            reader.read((type, buffer, offset, length) ->
            {
                for (int i = 0; i < length; i += 8)
                {
                    final long value = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i);
                    if (value != next[0] * 1_000 + i)
                    {
                        failure.compareAndSet(null, new AssertionError("record " + next[0] + " word " + i + " was "
                            + value));
                    }
                }
                next[0]++;
            }, 64);
            assertTrue(System.nanoTime() < deadline, "exchange took longer than 120 s");
        }
        producer.join();
        observer.join();
        assertNull(failure.get());
        assertEquals(records, next[0]);
    }
}
