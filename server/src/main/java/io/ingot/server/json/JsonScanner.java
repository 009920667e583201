package io.ingot.server.json;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;

/**
 * Reads JSON tokens from part of a buffer, as Triton's HTTP frontend reads request bodies: strict RFC 8259, plus the
 * non-finite numbers of rapidjson's {@code kParseNanAndInfFlag} ({@code NaN}, {@code Inf}, {@code Infinity}, each
 * optionally after {@code -}), which is how Triton parses (triton_json.h, {@code TritonJson::Value::Parse}) and
 * writes ({@code kWriteNanAndInfFlag}: {@code NaN}, {@code Infinity}, {@code -Infinity}) JSON. Errors are INVALID_ARG
 * with Triton's text: {@code failed to parse the request JSON buffer: <rapidjson's message> at <offset>}.
 *
 * <p>Nothing is recursive here; callers bound their own nesting. A number is scanned without allocating; its value is
 * read by {@link #numberAsLong}, {@link #numberAsUnsigned} or {@link #numberAsDouble}. Not thread-safe.
 */
final class JsonScanner
{
    /** The next value is an object. */
    static final int OBJECT = '{';
    /** The next value is an array. */
    static final int ARRAY = '[';
    /** The next value is a string. */
    static final int STRING = '"';
    /** The next value is a number (finite or not). */
    static final int NUMBER = '0';
    /** The next value is {@code true} or {@code false}. */
    static final int BOOLEAN = 't';
    /** The next value is {@code null}. */
    static final int NULL = 'n';

    private final ByteBuf buf;
    private final int start;
    private final int end;
    private int pos;
    private boolean started;

    private int numberStart;
    private int numberEnd;
    private boolean numberIntegral;
    private double nonFinite;
    private boolean isNonFinite;

    /**
     * @param buf   the bytes
     * @param start index of the first byte
     * @param end   index after the last byte
     */
    JsonScanner(final ByteBuf buf, final int start, final int end)
    {
        this.buf = buf;
        this.start = start;
        this.end = end;
        this.pos = start;
    }

    /** @return the offset of the next byte from the start of the JSON text */
    int offset()
    {
        return pos - start;
    }

    /** @return the absolute index of the next byte in the buffer */
    int position()
    {
        return pos;
    }

    /** @return true when only whitespace remains */
    boolean atEnd()
    {
        skipWhitespace();
        return pos >= end;
    }

    private void skipWhitespace()
    {
        while (pos < end)
        {
            final byte c = buf.getByte(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
                return;
            }
            pos++;
        }
    }

    /**
     * @return the kind of the next value ({@link #OBJECT}, {@link #ARRAY}, ...) after whitespace
     * @throws InferenceException when no value starts here
     */
    int peekValue()
    {
        skipWhitespace();
        if (pos >= end)
        {
            throw error(started ? "Invalid value." : "The document is empty.");
        }
        started = true;
        final int c = buf.getByte(pos);
        return switch (c)
        {
            case '{', '[', '"' -> c;
            case 't', 'f' -> BOOLEAN;
            case 'n' -> NULL;
            case '-', 'I', 'N', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> NUMBER;
            default -> throw error("Invalid value.");
        };
    }

    /**
     * Consumes {@code c} after whitespace if it is next.
     *
     * @param c a structural character
     * @return whether it was there
     */
    boolean consume(final char c)
    {
        skipWhitespace();
        if (pos < end && buf.getByte(pos) == c)
        {
            pos++;
            return true;
        }
        return false;
    }

    /**
     * Consumes {@code c} after whitespace.
     *
     * @param c       a structural character
     * @param missing rapidjson's message when it is not there
     */
    void expect(final char c, final String missing)
    {
        if (!consume(c))
        {
            throw error(missing);
        }
    }

    /** @return {@code true} or {@code false}, consumed */
    boolean readBoolean()
    {
        if (matches("true"))
        {
            return true;
        }
        if (matches("false"))
        {
            return false;
        }
        throw error("Invalid value.");
    }

    /** Consumes {@code null}. */
    void readNull()
    {
        if (!matches("null"))
        {
            throw error("Invalid value.");
        }
    }

    private boolean matches(final String literal)
    {
        skipWhitespace();
        return matchesHere(literal);
    }

    /** @return the next string, consumed and unescaped */
    String readString()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        readString(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Appends the next string's bytes (UTF-8, unescaped) to {@code out}, without a copy through a {@code String}.
     *
     * @param out where they go
     * @return how many bytes were appended
     */
    int readString(final ByteBuf out)
    {
        final int before = out.writerIndex();
        readString(new ByteSink()
        {
            @Override
            public void write(final int b)
            {
                out.writeByte(b);
            }

            @Override
            public void write(final int from, final int length)
            {
                out.writeBytes(buf, from, length);
            }
        });
        return out.writerIndex() - before;
    }

    private void readString(final ByteArrayOutputStream out)
    {
        readString(new ByteSink()
        {
            @Override
            public void write(final int b)
            {
                out.write(b);
            }

            @Override
            public void write(final int from, final int length)
            {
                for (int i = 0; i < length; i++)
                {
                    out.write(buf.getByte(from + i));
                }
            }
        });
    }

    /** Where unescaped string bytes go. */
    private interface ByteSink
    {
        void write(int b);

        void write(int from, int length);
    }

    private void readString(final ByteSink out)
    {
        expect('"', "Invalid value.");
        int run = pos;
        while (true)
        {
            if (pos >= end)
            {
                throw error("Missing a closing quotation mark in string.");
            }
            final int c = buf.getByte(pos) & 0xFF;
            if (c == '"')
            {
                out.write(run, pos - run);
                pos++;
                return;
            }
            if (c < 0x20)
            {
                throw error("Invalid encoding in string.");
            }
            if (c != '\\')
            {
                pos++;
                continue;
            }
            out.write(run, pos - run);
            pos++;
            if (pos >= end)
            {
                throw error("Missing a closing quotation mark in string.");
            }
            final int escape = buf.getByte(pos++);
            switch (escape)
            {
                case '"', '\\', '/' -> out.write(escape);
                case 'b' -> out.write('\b');
                case 'f' -> out.write('\f');
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case 'u' -> writeUtf8(out, codePoint());
                default -> throw error("Invalid escape character in string.");
            }
            run = pos;
        }
    }

    private int codePoint()
    {
        final int unit = hex4();
        if (unit >= 0xDC00 && unit <= 0xDFFF)
        {
            throw error("The surrogate pair in string is invalid.");
        }
        if (unit < 0xD800 || unit > 0xDBFF)
        {
            return unit;
        }
        if (end - pos < 6 || buf.getByte(pos) != '\\' || buf.getByte(pos + 1) != 'u')
        {
            throw error("The surrogate pair in string is invalid.");
        }
        pos += 2;
        final int low = hex4();
        if (low < 0xDC00 || low > 0xDFFF)
        {
            throw error("The surrogate pair in string is invalid.");
        }
        return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }

    private int hex4()
    {
        if (end - pos < 4)
        {
            throw error("Incorrect hex digit after \\u escape in string.");
        }
        int value = 0;
        for (int i = 0; i < 4; i++)
        {
            final int digit = Character.digit(buf.getByte(pos++), 16);
            if (digit < 0)
            {
                throw error("Incorrect hex digit after \\u escape in string.");
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static void writeUtf8(final ByteSink out, final int codePoint)
    {
        if (codePoint < 0x80)
        {
            out.write(codePoint);
        }
        else if (codePoint < 0x800)
        {
            out.write(0xC0 | codePoint >> 6);
            out.write(0x80 | codePoint & 0x3F);
        }
        else if (codePoint < 0x10000)
        {
            out.write(0xE0 | codePoint >> 12);
            out.write(0x80 | codePoint >> 6 & 0x3F);
            out.write(0x80 | codePoint & 0x3F);
        }
        else
        {
            out.write(0xF0 | codePoint >> 18);
            out.write(0x80 | codePoint >> 12 & 0x3F);
            out.write(0x80 | codePoint >> 6 & 0x3F);
            out.write(0x80 | codePoint & 0x3F);
        }
    }

    /**
     * Scans the next number; read it with {@link #numberAsLong}, {@link #numberAsUnsigned}, {@link #numberAsDouble}
     * or {@link #numberText}.
     */
    void readNumber()
    {
        skipWhitespace();
        numberStart = pos;
        isNonFinite = false;
        numberIntegral = true;
        final boolean minus = pos < end && buf.getByte(pos) == '-';
        if (minus)
        {
            pos++;
        }
        if (pos < end && (buf.getByte(pos) == 'N' || buf.getByte(pos) == 'I'))
        {
            readNonFinite(minus);
            numberEnd = pos;
            return;
        }
        if (pos >= end || !isDigit(buf.getByte(pos)))
        {
            throw error("Invalid value.");
        }
        if (buf.getByte(pos) == '0')
        {
            pos++;
        }
        else
        {
            skipDigits();
        }
        if (pos < end && buf.getByte(pos) == '.')
        {
            numberIntegral = false;
            pos++;
            if (pos >= end || !isDigit(buf.getByte(pos)))
            {
                throw error("Miss fraction part in number.");
            }
            skipDigits();
        }
        if (pos < end && (buf.getByte(pos) == 'e' || buf.getByte(pos) == 'E'))
        {
            numberIntegral = false;
            pos++;
            if (pos < end && (buf.getByte(pos) == '+' || buf.getByte(pos) == '-'))
            {
                pos++;
            }
            if (pos >= end || !isDigit(buf.getByte(pos)))
            {
                throw error("Miss exponent in number.");
            }
            skipDigits();
        }
        numberEnd = pos;
    }

    private void readNonFinite(final boolean minus)
    {
        numberIntegral = false;
        isNonFinite = true;
        if (matchesHere("NaN"))
        {
            nonFinite = Double.NaN;
            return;
        }
        if (matchesHere("Inf"))
        {
            nonFinite = minus ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            if (pos < end && buf.getByte(pos) == 'i' && !matchesHere("inity"))
            {
                throw error("Invalid value.");
            }
            return;
        }
        throw error("Invalid value.");
    }

    /** Consumes {@code literal} if the next bytes are it, without skipping whitespace first. */
    private boolean matchesHere(final String literal)
    {
        if (end - pos < literal.length())
        {
            return false;
        }
        for (int i = 0; i < literal.length(); i++)
        {
            if (buf.getByte(pos + i) != literal.charAt(i))
            {
                return false;
            }
        }
        pos += literal.length();
        return true;
    }

    private void skipDigits()
    {
        while (pos < end && isDigit(buf.getByte(pos)))
        {
            pos++;
        }
    }

    private static boolean isDigit(final byte c)
    {
        return c >= '0' && c <= '9';
    }

    /** @return whether the scanned number is written without fraction or exponent (and is finite) */
    boolean numberIsIntegral()
    {
        return numberIntegral;
    }

    /** @return the scanned number's text, as written */
    String numberText()
    {
        return buf.toString(numberStart, numberEnd - numberStart, StandardCharsets.US_ASCII);
    }

    /** @return the scanned number's length in bytes */
    int numberLength()
    {
        return numberEnd - numberStart;
    }

    /**
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the scanned integral number, when it lies in [min, max]
     * @throws ArithmeticException when it is not integral or outside the range (the caller names the tensor)
     */
    long numberAsLong(final long min, final long max)
    {
        if (!numberIntegral)
        {
            throw new ArithmeticException("not an integer");
        }
        int i = numberStart;
        final boolean negative = buf.getByte(i) == '-';
        if (negative)
        {
            i++;
        }
        // Accumulate negatively, so that Long.MIN_VALUE fits.
        long value = 0;
        for (; i < numberEnd; i++)
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
     * @return the scanned integral number as an unsigned 64-bit value (its bits in a long)
     * @throws ArithmeticException when it is not a non-negative integer below 2^64
     */
    long numberAsUnsigned()
    {
        if (!numberIntegral || buf.getByte(numberStart) == '-')
        {
            throw new ArithmeticException("not a non-negative integer");
        }
        long value = 0;
        for (int i = numberStart; i < numberEnd; i++)
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

    /** @return the scanned number as a double: the closest one, or the non-finite value written */
    double numberAsDouble()
    {
        return isNonFinite ? nonFinite : Double.parseDouble(numberText());
    }

    /** @return whether the scanned number was written as {@code NaN} or an infinity */
    boolean numberIsNonFinite()
    {
        return isNonFinite;
    }

    /**
     * Skips the next value, whatever it is, without recursion, checking its syntax.
     *
     * @param maxDepth the deepest nesting of arrays and objects accepted
     * @throws InferenceException for malformed JSON, or nesting deeper than {@code maxDepth}
     */
    void skipValue(final int maxDepth)
    {
        skip(maxDepth);
    }

    /**
     * Skips the next value, however deeply nested, without recursion, checking its syntax: as Triton's parser
     * ({@code kParseIterativeFlag}) reads any depth. What it holds is one bit per open container, so a body of n
     * bytes costs at most n/8 bytes here.
     *
     * @throws InferenceException for malformed JSON
     */
    void skipValue()
    {
        skip(Integer.MAX_VALUE);
    }

    private void skip(final int maxDepth)
    {
        // Bit d tells whether the container open at depth d is an object; grown as containers open.
        long[] isObject = new long[1];
        int depth = 0;
        while (true)
        {
            final int kind = peekValue();
            if (kind == OBJECT || kind == ARRAY)
            {
                pos++;
                if (consume(kind == OBJECT ? '}' : ']'))
                {
                    // An empty container is a complete value.
                }
                else
                {
                    if (depth == maxDepth)
                    {
                        throw new InferenceException(ErrorCode.INVALID_ARG, "JSON nesting depth exceeds maximum "
                            + "allowed limit (" + maxDepth + ")");
                    }
                    if (depth >> 6 == isObject.length)
                    {
                        isObject = Arrays.copyOf(isObject, isObject.length * 2);
                    }
                    if (kind == OBJECT)
                    {
                        isObject[depth >> 6] |= 1L << depth;
                    }
                    else
                    {
                        isObject[depth >> 6] &= ~(1L << depth);
                    }
                    depth++;
                    if (kind == OBJECT)
                    {
                        memberName();
                    }
                    continue;
                }
            }
            else if (kind == STRING)
            {
                readString();
            }
            else if (kind == NUMBER)
            {
                readNumber();
            }
            else if (kind == BOOLEAN)
            {
                readBoolean();
            }
            else
            {
                readNull();
            }
            // A value ended: close the containers that end here, or go on to the next member or element.
            while (true)
            {
                if (depth == 0)
                {
                    return;
                }
                final boolean object = (isObject[(depth - 1) >> 6] & 1L << (depth - 1)) != 0;
                if (consume(','))
                {
                    if (object)
                    {
                        memberName();
                    }
                    break;
                }
                if (consume(object ? '}' : ']'))
                {
                    depth--;
                    continue;
                }
                throw error(object ? "Missing a comma or '}' after an object member."
                    : "Missing a comma or ']' after an array element.");
            }
        }
    }

    private void memberName()
    {
        skipWhitespace();
        if (pos >= end || buf.getByte(pos) != '"')
        {
            throw error("Missing a name for object member.");
        }
        readString();
        expect(':', "Missing a colon after a name of object member.");
    }

    /**
     * @param message rapidjson's message
     * @return INVALID_ARG with Triton's text and the offset of the next byte
     */
    InferenceException error(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "failed to parse the request JSON buffer: " + message
            + " at " + offset());
    }
}
