package io.ingot.server.json;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonTensorCodecTest
{
    private static ByteBuf read(final DataType type, final long[] shape, final String json)
    {
        long elements = 1;
        for (final long dim : shape)
        {
            elements *= dim;
        }
        final ByteBuf out = Unpooled.buffer();
        JsonTensorReader.read("in", type, shape, elements, JsonParser.parseString(json), out);
        return out;
    }

    private static String write(final DataType type, final byte[] data)
    {
        final ByteBuf out = Unpooled.buffer();
        JsonTensorWriter.write(new JsonOutput(out), "out", type, MemorySegment.ofArray(data));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void nestedAndFlatDataGiveTheSameRowMajorBytes()
    {
        final ByteBuf nested = read(DataType.FP32, new long[] {2, 2}, "[[1, 2.5], [-3, 4e1]]");
        final ByteBuf flat = read(DataType.FP32, new long[] {2, 2}, "[1, 2.5, -3, 40]");
        assertEquals(nested, flat);
        assertEquals(16, flat.readableBytes());
        assertEquals(2.5f, flat.getFloatLE(4));
        assertEquals(40f, flat.getFloatLE(12));
    }

    @Test
    void integersAreRangeCheckedAndLittleEndian()
    {
        final ByteBuf int16 = read(DataType.INT16, new long[] {2}, "[-2, 300]");
        assertEquals(-2, int16.getShortLE(0));
        assertEquals(300, int16.getShortLE(2));
        final ByteBuf uint64 = read(DataType.UINT64, new long[] {1}, "[18446744073709551615]");
        assertEquals(-1L, uint64.getLongLE(0));

        final InferenceException range = assertThrows(InferenceException.class,
            () -> read(DataType.INT8, new long[] {1}, "[128]"));
        assertEquals(ErrorCode.INVALID_ARG, range.code());
        assertTrue(range.getMessage().contains("input 'in'") && range.getMessage().contains("[-128, 127]"),
            range.getMessage());
        assertThrows(InferenceException.class, () -> read(DataType.UINT8, new long[] {1}, "[-1]"));
        final InferenceException fraction = assertThrows(InferenceException.class,
            () -> read(DataType.INT32, new long[] {1}, "[1.5]"));
        assertTrue(fraction.getMessage().contains("expected an integer") || fraction.getMessage().contains("integer"),
            fraction.getMessage());
    }

    @Test
    void boolNeedsJsonBooleansAndBytesNeedStrings()
    {
        final ByteBuf bools = read(DataType.BOOL, new long[] {3}, "[true, false, true]");
        assertArrayEquals(new byte[] {1, 0, 1}, bytesOf(bools));
        assertThrows(InferenceException.class, () -> read(DataType.BOOL, new long[] {1}, "[1]"));

        final ByteBuf strings = read(DataType.BYTES, new long[] {2}, "[\"hi\", \"\u00e9\"]");
        final ByteBuffer expected = ByteBuffer.allocate(4 + 2 + 4 + 2).order(ByteOrder.LITTLE_ENDIAN);
        expected.putInt(2).put("hi".getBytes(StandardCharsets.UTF_8)).putInt(2)
            .put("\u00e9".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(expected.array(), bytesOf(strings));
        assertThrows(InferenceException.class, () -> read(DataType.BYTES, new long[] {1}, "[7]"));
    }

    @Test
    void elementCountMustMatchTheShape()
    {
        final InferenceException few = assertThrows(InferenceException.class,
            () -> read(DataType.FP32, new long[] {2, 3}, "[1, 2, 3, 4, 5]"));
        assertTrue(few.getMessage().contains("shape does not match true shape of 'data'")
            && few.getMessage().contains("needs 6 elements, 'data' holds 5"), few.getMessage());
        final InferenceException many = assertThrows(InferenceException.class,
            () -> read(DataType.FP32, new long[] {1}, "[1, 2]"));
        assertTrue(many.getMessage().contains("holds more"), many.getMessage());
    }

    @Test
    void halfPrecisionIsRefusedInJsonBothWays()
    {
        final InferenceException in = assertThrows(InferenceException.class,
            () -> read(DataType.FP16, new long[] {1}, "[1]"));
        assertTrue(in.getMessage().contains("FP16") && in.getMessage().contains("binary"), in.getMessage());
        final InferenceException out = assertThrows(InferenceException.class,
            () -> write(DataType.BF16, new byte[2]));
        assertTrue(out.getMessage().contains("binary_data"), out.getMessage());
    }

    @Test
    void nestingIsLimited()
    {
        final String deep = "[".repeat(101) + "1" + "]".repeat(101);
        final JsonElement parsed = JsonParser.parseString(deep);
        final InferenceException error = assertThrows(InferenceException.class,
            () -> JsonTensorReader.read("in", DataType.INT32, new long[] {1}, 1, parsed, Unpooled.buffer()));
        assertTrue(error.getMessage().startsWith("JSON nesting depth exceeds maximum allowed limit (100)"),
            error.getMessage());
    }

    private static ByteBuf readText(final DataType type, final String json, final long elements)
    {
        final ByteBuf text = Unpooled.copiedBuffer(json, StandardCharsets.UTF_8);
        final ByteBuf out = Unpooled.buffer();
        JsonTensorReader.read("in", type, new long[] {elements}, elements, text, 0, text.writerIndex(), out);
        return out;
    }

    /**
     * Issue 14, defect 6: Triton writes non-finite values with rapidjson's kWriteNanAndInfFlag ({@code NaN},
     * {@code Infinity}, {@code -Infinity}) and parses request bodies with kParseNanAndInfFlag (triton_json.h), so
     * what the writer prints must read back to the same values.
     */
    @Test
    void nonFiniteValuesAreWrittenAsTritonWritesThemAndReadBack()
    {
        final ByteBuffer fp32 = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putFloat(Float.NaN)
            .putFloat(Float.POSITIVE_INFINITY).putFloat(Float.NEGATIVE_INFINITY).putFloat(1.5f);
        final String written = write(DataType.FP32, fp32.array());
        assertEquals("[NaN,Infinity,-Infinity,1.5]", written);
        final ByteBuf back = readText(DataType.FP32, written, 4);
        assertTrue(Float.isNaN(back.getFloatLE(0)));
        assertEquals(Float.POSITIVE_INFINITY, back.getFloatLE(4));
        assertEquals(Float.NEGATIVE_INFINITY, back.getFloatLE(8));
        assertEquals(1.5f, back.getFloatLE(12));
        final ByteBuffer fp64 = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putDouble(Double.NaN)
            .putDouble(Double.NEGATIVE_INFINITY);
        final ByteBuf back64 = readText(DataType.FP64, write(DataType.FP64, fp64.array()), 2);
        assertTrue(Double.isNaN(back64.getDoubleLE(0)));
        assertEquals(Double.NEGATIVE_INFINITY, back64.getDoubleLE(8));
        // rapidjson also reads Inf and -Inf (and -NaN); nothing else.
        assertEquals(Float.NEGATIVE_INFINITY, readText(DataType.FP32, "[Inf, -Inf]", 2).getFloatLE(4));
        for (final String malformed : new String[] {"[+Infinity]", "[nan]", "[Infinit]", "[inf]", "[-]", "[01]",
            "[1.]", "[.5]", "[1e]"})
        {
            final InferenceException refused = assertThrows(InferenceException.class,
                () -> readText(DataType.FP32, malformed, 1), malformed);
            assertTrue(refused.getMessage().startsWith("failed to parse the request JSON buffer: "),
                refused.getMessage());
        }
    }

    @Test
    void finiteValuesOutsideTheDatatypeAreRefusedNamingTensorAndIndex()
    {
        final InferenceException fp32 = assertThrows(InferenceException.class,
            () -> readText(DataType.FP32, "[1, 2, 1e39]", 3));
        assertEquals("unable to parse 'data' of input 'in': element 2 is 1e39, outside the range of FP32 (at most "
            + Float.MAX_VALUE + " in magnitude)", fp32.getMessage());
        assertThrows(InferenceException.class, () -> readText(DataType.FP32, "[-3.5e38]", 1));
        assertEquals(Float.MAX_VALUE, readText(DataType.FP32, "[3.4028235e38]", 1).getFloatLE(0));
        final InferenceException fp64 = assertThrows(InferenceException.class,
            () -> readText(DataType.FP64, "[1e400]", 1));
        assertTrue(fp64.getMessage().contains("element 0 is 1e400, outside the range of FP64"), fp64.getMessage());
        final InferenceException int64 = assertThrows(InferenceException.class,
            () -> readText(DataType.INT64, "[9223372036854775808]", 1));
        assertTrue(int64.getMessage().contains("element 0 is 9223372036854775808, expected an integer in ["),
            int64.getMessage());
        assertEquals(Long.MIN_VALUE, readText(DataType.INT64, "[-9223372036854775808]", 1).getLongLE(0));
        assertThrows(InferenceException.class, () -> readText(DataType.UINT64, "[18446744073709551616]", 1));
        // Tiny values are not out of range: they round to zero as in C.
        assertEquals(0f, readText(DataType.FP32, "[1e-50]", 1).getFloatLE(0));
    }

    @Test
    void stringsAreUnescapedStraightIntoTheTensor()
    {
        final ByteBuf bytes = readText(DataType.BYTES, "[\"a\\u00e9\\ud83d\\ude00\", \"\\\"\\n\"]", 2);
        final byte[] first = "a\u00e9\ud83d\ude00".getBytes(StandardCharsets.UTF_8);
        assertEquals(first.length, bytes.getIntLE(0));
        final byte[] copy = new byte[first.length];
        bytes.getBytes(4, copy);
        assertArrayEquals(first, copy);
        assertEquals(2, bytes.getIntLE(4 + first.length));
        final InferenceException lone = assertThrows(InferenceException.class,
            () -> readText(DataType.BYTES, "[\"\\ud800\"]", 1));
        assertTrue(lone.getMessage().contains("The surrogate pair in string is invalid."), lone.getMessage());
        assertThrows(InferenceException.class, () -> readText(DataType.BYTES, "[\"tab\there\"]", 1));
    }

    @Test
    void writerPrintsTritonsForms()
    {
        final ByteBuffer fp32 = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(1.1f).putFloat(-2f);
        assertEquals("[1.100000023841858,-2.0]", write(DataType.FP32, fp32.array()));
        assertEquals("[true,false]", write(DataType.BOOL, new byte[] {1, 0}));
        assertEquals("[255,1]", write(DataType.UINT8, new byte[] {(byte) 255, 1}));
        final ByteBuffer u64 = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(-1L);
        assertEquals("[18446744073709551615]", write(DataType.UINT64, u64.array()));
        final ByteBuffer strings = ByteBuffer.allocate(4 + 5 + 4).order(ByteOrder.LITTLE_ENDIAN);
        strings.putInt(5).put("a\"b\nc".getBytes(StandardCharsets.UTF_8)).putInt(0);
        assertEquals("[\"a\\\"b\\nc\",\"\"]", write(DataType.BYTES, strings.array()));
    }

    private static byte[] bytesOf(final ByteBuf buffer)
    {
        final byte[] bytes = new byte[buffer.readableBytes()];
        buffer.getBytes(buffer.readerIndex(), bytes);
        return bytes;
    }
}
