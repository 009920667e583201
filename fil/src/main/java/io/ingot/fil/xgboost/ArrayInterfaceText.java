package io.ingot.fil.xgboost;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Writes the JSON {@code __array_interface__} that describes a C-contiguous matrix to XGBoost, as NUL-terminated
 * ASCII into native memory of its own: {@code {"data":[<address>,true],"shape":[<rows>,<cols>],"typestr":"<t>",
 * "version":3}}. The {@code data} member carries the address of the caller's memory, so XGBoost reads the rows
 * where they lie (no copy). Rewriting it allocates nothing. Not thread-safe: one per predicting thread.
 */
final class ArrayInterfaceText
{
    /** Enough for two 20-digit numbers, a 20-digit address and the fixed text. */
    static final int CAPACITY = 160;

    private static final byte[] DATA = bytes("{\"data\":[");
    private static final byte[] SHAPE = bytes(",true],\"shape\":[");
    private static final byte[] COMMA = bytes(",");

    private final MemorySegment text;
    private final byte[] tail;
    private final byte[] digits = new byte[20];

    /**
     * @param text    native memory of at least {@link #CAPACITY} bytes, owned by the caller
     * @param typestr the element type in NumPy's notation ({@code <f4}, {@code <i8}, {@code |u1}, ...)
     */
    ArrayInterfaceText(final MemorySegment text, final String typestr)
    {
        if (text.byteSize() < CAPACITY)
        {
            throw new IllegalArgumentException("an array interface needs " + CAPACITY + " bytes");
        }
        this.text = text;
        this.tail = bytes("],\"typestr\":\"" + typestr + "\",\"version\":3}\0");
    }

    /**
     * @param address the first element's address
     * @param rows    rows
     * @param cols    columns
     * @return the text, NUL-terminated, valid until the next call
     */
    MemorySegment describe(final long address, final long rows, final long cols)
    {
        long at = put(DATA, 0);
        at = putNumber(address, at);
        at = put(SHAPE, at);
        at = putNumber(rows, at);
        at = put(COMMA, at);
        at = putNumber(cols, at);
        put(tail, at);
        return text;
    }

    private long put(final byte[] bytes, final long at)
    {
        MemorySegment.copy(bytes, 0, text, ValueLayout.JAVA_BYTE, at, bytes.length);
        return at + bytes.length;
    }

    /** Writes a non-negative number (an address is below 2^63 on every platform FFM supports). */
    private long putNumber(final long value, final long at)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("negative value in an array interface: " + value);
        }
        int count = 0;
        long rest = value;
        do
        {
            digits[count++] = (byte)('0' + (int)(rest % 10));
            rest /= 10;
        }
        while (rest != 0);
        for (int i = 0; i < count; i++)
        {
            text.set(ValueLayout.JAVA_BYTE, at + i, digits[count - 1 - i]);
        }
        return at + count;
    }

    private static byte[] bytes(final String ascii)
    {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }
}
