package io.ingot.ipc;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Proves that {@link IpcRingWriter}/{@link IpcRingReader} speak Agrona's {@code OneToOneRingBuffer} format byte for
 * byte, by exchanging records with Agrona's own implementation over the same memory, across many wrap-arounds.
 * Agrona's {@code UnsafeBuffer} needs {@code jdk.internal.misc} opened (this module's {@code ingot.jvm.flags} does);
 * the IPC classes themselves need no such flag, which is why clients use them instead.
 */
class AgronaRingInteropTest
{
    private static final int CAPACITY = 4096;

    @Test
    void agronaReadsWhatIngotWrites()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 64);
            final IpcRingWriter writer = new IpcRingWriter(memory);
            final OneToOneRingBuffer agrona = new OneToOneRingBuffer(new UnsafeBuffer(memory.address(),
                (int)memory.byteSize()));
            final Random random = new Random(5);
            final long[] expected = {0};
            for (long seq = 0; seq < 20_000; )
            {
                final int length = 8 + random.nextInt(writer.maxMessageLength() / 8) * 8;
                final int index = writer.tryClaim(3, length);
                if (index != IpcRingWriter.INSUFFICIENT_CAPACITY)
                {
                    for (int i = 0; i < length; i += 8)
                    {
                        memory.set(ValueLayout.JAVA_LONG_UNALIGNED, index + i, seq);
                    }
                    writer.commit(index);
                    seq++;
                }
                if (random.nextInt(3) == 0 || index == IpcRingWriter.INSUFFICIENT_CAPACITY)
                {
                    agrona.read((type, buffer, offset, len) ->
                    {
                        assertEquals(3, type);
                        for (int i = 0; i < len; i += 8)
                        {
                            assertEquals(expected[0], buffer.getLong(offset + i));
                        }
                        expected[0]++;
                    });
                }
            }
            agrona.read((type, buffer, offset, len) -> expected[0]++);
            agrona.read((type, buffer, offset, len) -> expected[0]++);
            assertEquals(20_000, expected[0]);
        }
    }

    @Test
    void ingotReadsWhatAgronaWrites()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 64);
            final IpcRingReader reader = new IpcRingReader(memory);
            final OneToOneRingBuffer agrona = new OneToOneRingBuffer(new UnsafeBuffer(memory.address(),
                (int)memory.byteSize()));
            final UnsafeBuffer source = new UnsafeBuffer(new byte[agrona.maxMsgLength()]);
            final Random random = new Random(6);
            final long[] expected = {0};
            for (long seq = 0; seq < 20_000; )
            {
                final int length = 8 + random.nextInt(agrona.maxMsgLength() / 8) * 8;
                for (int i = 0; i < length; i += 8)
                {
                    source.putLong(i, seq);
                }
                final boolean written = agrona.write(4, source, 0, length);
                seq += written ? 1 : 0;
                if (random.nextInt(3) == 0 || !written)
                {
                    reader.read((type, buffer, offset, len) ->
                    {
                        assertEquals(4, type);
                        for (int i = 0; i < len; i += 8)
                        {
                            assertEquals(expected[0], buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i));
                        }
                        expected[0]++;
                    }, Integer.MAX_VALUE);
                }
            }
            reader.read((type, buffer, offset, len) -> expected[0]++, Integer.MAX_VALUE);
            reader.read((type, buffer, offset, len) -> expected[0]++, Integer.MAX_VALUE);
            assertEquals(20_000, expected[0]);
        }
    }
}
