package io.ingot.server.json;

import io.netty.buffer.ByteBuf;

/**
 * Converts the digits of a JSON integer, as the client wrote them in the request's bytes, into a {@code long} without
 * a {@code String} in between: the JSON tensor reader converts every element of an integer tensor this way, so a
 * tensor of a million elements costs no garbage.
 *
 * <p>Contract: the range {@code [start, end)} holds an optional {@code -} and decimal digits only (what
 * {@link JsonScanner#readNumber} scanned as integral); a value outside the range asked for is an
 * {@link ArithmeticException}, which the caller turns into a message naming the tensor. Stateless: safe from any
 * thread for a buffer no one writes.
 */
final class JsonIntegerText
{
    private JsonIntegerText()
    {
    }

    /**
     * @param buf   the bytes
     * @param start index of the first character ({@code -} or a digit)
     * @param end   index after the last digit
     * @param min   the smallest value accepted
     * @param max   the largest value accepted
     * @return the value, when it lies in [min, max]
     * @throws ArithmeticException when it is outside the range
     */
    static long toLong(final ByteBuf buf, final int start, final int end, final long min, final long max)
    {
        int i = start;
        final boolean negative = buf.getByte(i) == '-';
        if (negative)
        {
            i++;
        }
        // Accumulate negatively, so that Long.MIN_VALUE fits.
        long value = 0;
        for (; i < end; i++)
        {
            final int digit = buf.getByte(i) - '0';
            if (value < (Long.MIN_VALUE + digit) / 10)
            {
                throw new ArithmeticException("out of range");
            }
            value = value * 10 - digit;
        }
        if (!negative)
        {
            if (value == Long.MIN_VALUE)
            {
                throw new ArithmeticException("out of range");
            }
            value = -value;
        }
        if (value < min || value > max)
        {
            throw new ArithmeticException("out of range");
        }
        return value;
    }

    /**
     * @param buf   the bytes
     * @param start index of the first digit
     * @param end   index after the last digit
     * @return the value as an unsigned 64-bit integer (its bits in a long)
     * @throws ArithmeticException when it is negative or not below 2^64
     */
    static long toUnsigned(final ByteBuf buf, final int start, final int end)
    {
        if (buf.getByte(start) == '-')
        {
            throw new ArithmeticException("not a non-negative integer");
        }
        long value = 0;
        for (int i = start; i < end; i++)
        {
            final int digit = buf.getByte(i) - '0';
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0)
            {
                throw new ArithmeticException("out of range");
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
