package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Reads and writes the zero-padded UTF-8 strings of frames.
 */
public final class FrameText
{
    /** The empty string's bytes, shared. */
    public static final byte[] NO_BYTES = new byte[0];

    private FrameText()
    {
    }

    /**
     * Writes bytes and zeroes the padding up to the next multiple of 8.
     *
     * @param buffer the frame's memory
     * @param offset where the text starts
     * @param bytes  the text
     */
    public static void put(final MemorySegment buffer, final long offset, final byte[] bytes)
    {
        MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, offset, bytes.length);
        zeroPadding(buffer, offset + bytes.length, bytes.length);
    }

    /**
     * Zeroes the bytes from the end of a text up to the next multiple of 8 of its length.
     *
     * @param buffer the frame's memory
     * @param end    offset just after the text
     * @param length the text's length
     */
    public static void zeroPadding(final MemorySegment buffer, final long end, final int length)
    {
        final int padding = IpcLimits.align8(length) - length;
        for (int i = 0; i < padding; i++)
        {
            buffer.set(ValueLayout.JAVA_BYTE, end + i, (byte)0);
        }
    }

    /**
     * @param buffer the frame's memory
     * @param offset where the text starts
     * @param length its bytes
     * @return the text (invalid UTF-8 becomes U+FFFD)
     */
    public static String get(final MemorySegment buffer, final long offset, final int length)
    {
        final byte[] bytes = new byte[length];
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
