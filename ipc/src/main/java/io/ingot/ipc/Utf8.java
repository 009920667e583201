package io.ingot.ipc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 helpers for the limited text fields of frames and client entries.
 */
public final class Utf8
{
    private Utf8()
    {
    }

    /**
     * Encodes text, cutting it at a character boundary so that it fits.
     *
     * @param text     the text ({@code null} is empty)
     * @param maxBytes the most bytes allowed
     * @return at most {@code maxBytes} bytes of valid UTF-8
     */
    public static byte[] truncate(final String text, final int maxBytes)
    {
        final byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes)
        {
            return bytes;
        }
        int end = maxBytes;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80)
        {
            end--;
        }
        return Arrays.copyOf(bytes, end);
    }

    /**
     * Encodes a name that must fit a frame field.
     *
     * @param what     what the name is, for the message ("model name", "input name")
     * @param name     the name
     * @param minBytes the fewest bytes allowed
     * @param maxBytes the most bytes allowed
     * @return its UTF-8 bytes
     * @throws IllegalArgumentException when it is too short or too long
     */
    public static byte[] encodeBounded(final String what, final String name, final int minBytes, final int maxBytes)
    {
        final byte[] bytes = name == null ? new byte[0] : name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < minBytes || bytes.length > maxBytes)
        {
            throw new IllegalArgumentException(what + " '" + name + "' is " + bytes.length + " bytes of UTF-8; it "
                + "must be " + minBytes + ".." + maxBytes + " bytes");
        }
        return bytes;
    }
}
