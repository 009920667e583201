package io.ingot.server.ipc;

import io.ingot.ipc.FrameText;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Turns the UTF-8 names of frames (models, tensors) into {@code String}s without allocating for names seen before:
 * an open-addressing table of the names' bytes. Used only by the IPC thread. A full table still answers, allocating.
 */
final class NameTable
{
    private static final int CAPACITY = 1024;

    private final byte[][] keys = new byte[CAPACITY][];
    private final String[] values = new String[CAPACITY];
    private int size;

    /**
     * @param buffer memory holding the name
     * @param offset where it starts
     * @param length its bytes
     * @return the name
     */
    String get(final MemorySegment buffer, final long offset, final int length)
    {
        int hash = 1;
        for (int i = 0; i < length; i++)
        {
            hash = 31 * hash + buffer.get(ValueLayout.JAVA_BYTE, offset + i);
        }
        int index = (hash ^ (hash >>> 16)) & (CAPACITY - 1);
        for (int probe = 0; probe < CAPACITY; probe++)
        {
            final byte[] key = keys[index];
            if (key == null)
            {
                final String value = FrameText.get(buffer, offset, length);
                if (size < CAPACITY / 2)
                {
                    keys[index] = copy(buffer, offset, length);
                    values[index] = value;
                    size++;
                }
                return value;
            }
            if (matches(key, buffer, offset, length))
            {
                return values[index];
            }
            index = (index + 1) & (CAPACITY - 1);
        }
        return FrameText.get(buffer, offset, length);
    }

    private static byte[] copy(final MemorySegment buffer, final long offset, final int length)
    {
        final byte[] bytes = new byte[length];
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return bytes;
    }

    private static boolean matches(final byte[] key, final MemorySegment buffer, final long offset, final int length)
    {
        if (key.length != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (key[i] != buffer.get(ValueLayout.JAVA_BYTE, offset + i))
            {
                return false;
            }
        }
        return true;
    }
}
