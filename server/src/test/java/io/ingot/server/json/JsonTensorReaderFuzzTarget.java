package io.ingot.server.json;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.ingot.api.InferenceException;
import io.ingot.tensor.DataType;
import io.ingot.testing.FuzzReport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JSON tensor reader as a fuzz target ({@code FrontendDecodersFuzzer} runs it) ({@code data} of an input, read
 * straight from the request bytes with Triton's
 * number syntax): for every datatype and shape, {@code data} is either converted into exactly the tensor's bytes
 * (element count times the element size, or length-prefixed strings for BYTES) or refused with an
 * {@link InferenceException}. The same input then goes through the request parser with the data located in place,
 * which must agree. Seeds: {@code FrontendDecodersFuzzerInputs/}.
 */
public final class JsonTensorReaderFuzzTarget
{
    private static final DataType[] TYPES = DataType.values();
    private static final FuzzReport REPORT = FuzzReport.start("JSON tensor reader");

    /** Prints the report and frees what the target holds. */
    public static void finish()
    {
        REPORT.print();
    }

    public static void fuzzOne(final FuzzedDataProvider data)
    {
        final DataType type = TYPES[data.consumeInt(0, TYPES.length - 1)];
        final int elements = data.consumeInt(0, 8);
        final byte[] json = data.consumeRemainingAsBytes();
        final ByteBuf text = Unpooled.wrappedBuffer(json);
        final ByteBuf out = Unpooled.buffer();
        boolean refused = false;
        try
        {
            JsonTensorReader.read("in", type, new long[] {elements}, elements, text, 0, json.length, out);
            if (type != DataType.BYTES)
            {
                assertEquals((long) elements * type.byteSize(), out.readableBytes(), "bytes of " + elements + " "
                    + type);
            }
            else
            {
                int offset = 0;
                for (int i = 0; i < elements; i++)
                {
                    offset += 4 + out.getIntLE(offset);
                }
                assertEquals(out.readableBytes(), offset, "length prefixes do not add up");
            }
        }
        catch (final InferenceException expected)
        {
            refused = true;
            assertTrue(expected.getMessage() != null && expected.getMessage().length() < 1024,
                "an unbounded or empty message: " + expected.getMessage());
        }
        REPORT.tried(refused);
        final ByteBuf request = Unpooled.buffer().writeBytes("{\"inputs\":[{\"data\":".getBytes())
            .writeBytes(json).writeBytes("}]}".getBytes());
        try
        {
            JsonBodies.parseInferRequest(request, 0, request.readableBytes());
        }
        catch (final InferenceException malformed)
        {
            assertTrue(malformed.getMessage().startsWith("failed to parse the request JSON buffer: ")
                || malformed.getMessage().startsWith("JSON nesting depth exceeds"), malformed.getMessage());
        }
    }
}
