package io.ingot.server.json;

import io.netty.buffer.ByteBuf;

/**
 * Writes JSON straight into a Netty {@link ByteBuf}, UTF-8 encoded, with the commas and colons placed for the
 * caller. Used for every JSON body the server sends, so that large tensors in JSON never pass through a
 * {@code String}.
 *
 * <p>Nesting is tracked in a bit mask, which limits depth to 64 levels: far more than any response needs.
 */
public final class JsonOutput
{
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int MAX_DEPTH = 64;

    private final ByteBuf out;
    /** Bit d set: the container at depth d already holds a value (a comma must precede the next). */
    private long nonEmpty;
    private int depth;
    private boolean afterName;

    /**
     * @param out where the JSON goes (appended at its writer index)
     */
    public JsonOutput(final ByteBuf out)
    {
        this.out = out;
    }

    /** @return the buffer written to. */
    public ByteBuf buffer()
    {
        return out;
    }

    /** @return this, after writing {@code {}. */
    public JsonOutput beginObject()
    {
        beforeValue();
        out.writeByte('{');
        push();
        return this;
    }

    /** @return this, after writing {@code }}. */
    public JsonOutput endObject()
    {
        pop();
        out.writeByte('}');
        return this;
    }

    /** @return this, after writing {@code [}. */
    public JsonOutput beginArray()
    {
        beforeValue();
        out.writeByte('[');
        push();
        return this;
    }

    /** @return this, after writing {@code ]}. */
    public JsonOutput endArray()
    {
        pop();
        out.writeByte(']');
        return this;
    }

    /**
     * Writes an object key.
     *
     * @param name the key
     * @return this
     */
    public JsonOutput name(final String name)
    {
        beforeValue();
        writeString(name);
        out.writeByte(':');
        afterName = true;
        return this;
    }

    /**
     * @param value a string (written escaped), or {@code null}
     * @return this
     */
    public JsonOutput value(final String value)
    {
        beforeValue();
        if (value == null)
        {
            writeAscii("null");
        }
        else
        {
            writeString(value);
        }
        return this;
    }

    /**
     * Writes UTF-8 bytes as a JSON string; malformed UTF-8 is replaced by U+FFFD.
     *
     * @param utf8 the bytes
     * @return this
     */
    public JsonOutput utf8Value(final byte[] utf8)
    {
        return value(new String(utf8, java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * @param value a signed integer
     * @return this
     */
    public JsonOutput value(final long value)
    {
        beforeValue();
        writeAscii(Long.toString(value));
        return this;
    }

    /**
     * @param value an unsigned 64-bit integer held in a long
     * @return this
     */
    public JsonOutput unsignedValue(final long value)
    {
        beforeValue();
        writeAscii(Long.toUnsignedString(value));
        return this;
    }

    /**
     * Writes a double in its shortest round-trip form. NaN and infinities, which JSON lacks, are written as
     * {@code NaN}, {@code Infinity} and {@code -Infinity}, as Python's json module reads them.
     *
     * @param value the number
     * @return this
     */
    public JsonOutput value(final double value)
    {
        beforeValue();
        if (Double.isNaN(value))
        {
            writeAscii("NaN");
        }
        else if (Double.isInfinite(value))
        {
            writeAscii(value > 0 ? "Infinity" : "-Infinity");
        }
        else
        {
            writeAscii(Double.toString(value));
        }
        return this;
    }

    /**
     * @param value a boolean
     * @return this
     */
    public JsonOutput value(final boolean value)
    {
        beforeValue();
        writeAscii(value ? "true" : "false");
        return this;
    }

    /**
     * Writes already-serialized JSON as the next value.
     *
     * @param json a complete JSON value
     * @return this
     */
    public JsonOutput rawValue(final String json)
    {
        beforeValue();
        out.writeCharSequence(json, java.nio.charset.StandardCharsets.UTF_8);
        return this;
    }

    private void beforeValue()
    {
        if (afterName)
        {
            afterName = false;
            return;
        }
        if (depth > 0)
        {
            final long bit = 1L << (depth - 1);
            if ((nonEmpty & bit) != 0)
            {
                out.writeByte(',');
            }
            else
            {
                nonEmpty |= bit;
            }
        }
    }

    private void push()
    {
        if (depth == MAX_DEPTH)
        {
            throw new IllegalStateException("JSON nesting deeper than " + MAX_DEPTH + " levels");
        }
        depth++;
        nonEmpty &= ~(1L << (depth - 1));
    }

    private void pop()
    {
        if (depth == 0)
        {
            throw new IllegalStateException("unbalanced JSON: no open object or array to close");
        }
        depth--;
    }

    private void writeAscii(final String ascii)
    {
        out.writeCharSequence(ascii, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private void writeString(final String value)
    {
        out.writeByte('"');
        final int length = value.length();
        int plainStart = 0;
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\')
            {
                continue;
            }
            if (i > plainStart)
            {
                out.writeCharSequence(value.subSequence(plainStart, i), java.nio.charset.StandardCharsets.UTF_8);
            }
            plainStart = i + 1;
            out.writeByte('\\');
            switch (c)
            {
                case '"' -> out.writeByte('"');
                case '\\' -> out.writeByte('\\');
                case '\n' -> out.writeByte('n');
                case '\r' -> out.writeByte('r');
                case '\t' -> out.writeByte('t');
                case '\b' -> out.writeByte('b');
                case '\f' -> out.writeByte('f');
                default ->
                {
                    out.writeByte('u');
                    out.writeByte('0');
                    out.writeByte('0');
                    out.writeByte(HEX[c >> 4]);
                    out.writeByte(HEX[c & 0xF]);
                }
            }
        }
        if (length > plainStart)
        {
            out.writeCharSequence(value.subSequence(plainStart, length), java.nio.charset.StandardCharsets.UTF_8);
        }
        out.writeByte('"');
    }
}
