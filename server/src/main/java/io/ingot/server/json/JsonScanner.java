package io.ingot.server.json;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;
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
 *
 * <p>The scanner holds the position and reads tokens; strings are decoded by {@link JsonStringDecoder}, skipped values
 * checked by {@link JsonValueSkipper}, integers converted by {@link JsonIntegerText}, each working on this scanner's
 * position so that nothing is allocated per token.
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

    /** @param position the absolute index of the next byte, set by the decoders that read on from here */
    void seek(final int position)
    {
        pos = position;
    }

    /** @return the bytes */
    ByteBuf buffer()
    {
        return buf;
    }

    /** @return the index after the last byte of the JSON text */
    int end()
    {
        return end;
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
        JsonStringDecoder.decode(this, new JsonStringDecoder.ByteSink()
        {
            @Override
            public void write(final int b)
            {
                bytes.write(b);
            }

            @Override
            public void write(final int from, final int length)
            {
                for (int i = 0; i < length; i++)
                {
                    bytes.write(buf.getByte(from + i));
                }
            }
        });
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
        JsonStringDecoder.decode(this, new JsonStringDecoder.ByteSink()
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
        return JsonIntegerText.toLong(buf, numberStart, numberEnd, min, max);
    }

    /**
     * @return the scanned integral number as an unsigned 64-bit value (its bits in a long)
     * @throws ArithmeticException when it is not a non-negative integer below 2^64
     */
    long numberAsUnsigned()
    {
        if (!numberIntegral)
        {
            throw new ArithmeticException("not a non-negative integer");
        }
        return JsonIntegerText.toUnsigned(buf, numberStart, numberEnd);
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
        JsonValueSkipper.skip(this, maxDepth);
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
        JsonValueSkipper.skip(this, Integer.MAX_VALUE);
    }

    /**
     * @param message rapidjson's message
     * @return INVALID_ARG with Triton's text and the offset of the next byte
     */
    InferenceException error(final String message)
    {
        return errorAt(pos, message);
    }

    /**
     * @param position the absolute index the error is reported at
     * @param message  rapidjson's message
     * @return INVALID_ARG with Triton's text and the offset of {@code position}
     */
    InferenceException errorAt(final int position, final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "failed to parse the request JSON buffer: " + message
            + " at " + (position - start));
    }
}
