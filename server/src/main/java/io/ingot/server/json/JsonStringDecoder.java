package io.ingot.server.json;

import io.netty.buffer.ByteBuf;

/**
 * Decodes one JSON string for a {@link JsonScanner}: from its opening quote to its closing quote, unescaping
 * {@code \"}, {@code \\}, {@code \/}, {@code \b}, {@code \f}, {@code \n}, {@code \r}, {@code \t} and {@code \\uXXXX}
 * (surrogate pairs joined into one code point, written as UTF-8), and refusing raw control characters, with
 * rapidjson's messages at rapidjson's offsets, as Triton does.
 *
 * <p>Contract: the unescaped bytes go to a {@link ByteSink} in runs (a run of plain bytes is handed over as one range
 * of the source buffer, so a sink that copies ranges copies without a per-byte loop); on return the scanner stands
 * after the closing quote. Stateless: the state is the scanner's, which is not thread-safe.
 */
final class JsonStringDecoder
{
    private static final String INVALID_SURROGATE = "The surrogate pair in string is invalid.";
    private static final String INVALID_HEX = "Incorrect hex digit after \\u escape in string.";
    private static final String UNCLOSED = "Missing a closing quotation mark in string.";

    private JsonStringDecoder()
    {
    }

    /** Where unescaped string bytes go. */
    interface ByteSink
    {
        /** @param b one byte (the low eight bits) */
        void write(int b);

        /**
         * @param from   index of the first byte of a plain run in the scanner's buffer
         * @param length bytes in the run
         */
        void write(int from, int length);
    }

    /**
     * Decodes the string at the scanner's position (after whitespace) into {@code out}.
     *
     * @param in  the scanner, standing before the string's opening quote
     * @param out where the unescaped bytes go
     * @throws io.ingot.api.InferenceException INVALID_ARG with rapidjson's message for a malformed string
     */
    static void decode(final JsonScanner in, final ByteSink out)
    {
        in.expect('"', "Invalid value.");
        final ByteBuf buf = in.buffer();
        final int end = in.end();
        int pos = in.position();
        int run = pos;
        while (true)
        {
            if (pos >= end)
            {
                throw in.errorAt(pos, UNCLOSED);
            }
            final int c = buf.getByte(pos) & 0xFF;
            if (c == '"')
            {
                out.write(run, pos - run);
                in.seek(pos + 1);
                return;
            }
            if (c < 0x20)
            {
                throw in.errorAt(pos, "Invalid encoding in string.");
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
                throw in.errorAt(pos, UNCLOSED);
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
                case 'u' ->
                {
                    in.seek(pos);
                    writeUtf8(out, codePoint(in));
                    pos = in.position();
                }
                default -> throw in.errorAt(pos, "Invalid escape character in string.");
            }
            run = pos;
        }
    }

    /** Reads the hex digits of a {@code \\u} escape, and its low surrogate's when it starts a pair. */
    private static int codePoint(final JsonScanner in)
    {
        final int unit = hex4(in);
        if (unit >= 0xDC00 && unit <= 0xDFFF)
        {
            throw in.error(INVALID_SURROGATE);
        }
        if (unit < 0xD800 || unit > 0xDBFF)
        {
            return unit;
        }
        final ByteBuf buf = in.buffer();
        final int pos = in.position();
        if (in.end() - pos < 6 || buf.getByte(pos) != '\\' || buf.getByte(pos + 1) != 'u')
        {
            throw in.error(INVALID_SURROGATE);
        }
        in.seek(pos + 2);
        final int low = hex4(in);
        if (low < 0xDC00 || low > 0xDFFF)
        {
            throw in.error(INVALID_SURROGATE);
        }
        return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }

    private static int hex4(final JsonScanner in)
    {
        int pos = in.position();
        if (in.end() - pos < 4)
        {
            throw in.error(INVALID_HEX);
        }
        final ByteBuf buf = in.buffer();
        int value = 0;
        for (int i = 0; i < 4; i++)
        {
            final int digit = Character.digit(buf.getByte(pos++), 16);
            if (digit < 0)
            {
                throw in.errorAt(pos, INVALID_HEX);
            }
            value = value << 4 | digit;
        }
        in.seek(pos);
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
}
