package io.ingot.server.json;

import com.google.gson.JsonElement;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.net.ClientText;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Converts the JSON {@code data} of an input tensor into its binary layout (little-endian, row-major, BYTES with
 * length prefixes) straight from the request's bytes ({@link JsonSpan}), checking every element against the datatype
 * and the element count against the shape, as Triton's HTTP frontend does. Nested arrays are flattened row-major, up
 * to {@value #MAX_NESTING} levels (Triton's HTTP_MAX_JSON_NESTING_DEPTH).
 *
 * <p>Numbers are read as Triton reads them ({@link JsonScanner}): {@code NaN}, {@code Infinity} and {@code -Infinity}
 * (and rapidjson's {@code Inf}) are the non-finite values, for FP32 and FP64. Unlike Triton, which narrows silently,
 * a finite number that the datatype cannot hold ({@code 1e39} for FP32, {@code 1e400} for FP64, {@code 128} for INT8)
 * is refused, naming the input and the element's index. Memory: the output tensor and nothing per element.
 */
public final class JsonTensorReader
{
    /** Deepest nesting of {@code data} arrays accepted (Triton's limit). */
    public static final int MAX_NESTING = 100;

    private static final int SHOWN_CHARS = 40;

    private final String tensor;
    private final DataType dataType;
    private final long expectedElements;
    private final long[] shape;
    private final ByteBuf out;
    private long count;

    private JsonTensorReader(final String tensor, final DataType dataType, final long[] shape,
        final long expectedElements, final ByteBuf out)
    {
        this.tensor = tensor;
        this.dataType = dataType;
        this.shape = shape;
        this.expectedElements = expectedElements;
        this.out = out;
    }

    /**
     * Appends the binary form of {@code data} to {@code out}.
     *
     * @param tensor           input name, for messages
     * @param dataType         its datatype
     * @param shape            its shape, for messages
     * @param expectedElements the element count of the shape
     * @param data             the JSON {@code data} value: a {@link JsonSpan} of the request body (as
     *                         {@link JsonBodies#parseInferRequest} leaves it), or any parsed value
     * @param out              where the bytes go
     * @throws InferenceException INVALID_ARG naming the input and the offending element
     */
    public static void read(final String tensor, final DataType dataType, final long[] shape,
        final long expectedElements, final JsonElement data, final ByteBuf out)
    {
        if (data.isJsonPrimitive() && data.getAsJsonPrimitive().isNumber()
            && data.getAsJsonPrimitive().getAsNumber() instanceof JsonSpan span)
        {
            read(tensor, dataType, shape, expectedElements, span.body(), span.start(), span.end(), out);
            return;
        }
        final ByteBuf text = Unpooled.wrappedBuffer(data.toString().getBytes(StandardCharsets.UTF_8));
        read(tensor, dataType, shape, expectedElements, text, text.readerIndex(), text.writerIndex(), out);
    }

    /**
     * Appends the binary form of the JSON text in {@code json[from, to)} to {@code out}.
     *
     * @param tensor           input name, for messages
     * @param dataType         its datatype
     * @param shape            its shape, for messages
     * @param expectedElements the element count of the shape
     * @param json             the bytes holding the {@code data} value
     * @param from             index of its first byte
     * @param to               index after its last byte
     * @param out              where the bytes go
     * @throws InferenceException INVALID_ARG naming the input and the offending element
     */
    public static void read(final String tensor, final DataType dataType, final long[] shape,
        final long expectedElements, final ByteBuf json, final int from, final int to, final ByteBuf out)
    {
        if (dataType == DataType.FP16 || dataType == DataType.BF16)
        {
            throw invalid("receiving " + dataType.wireName() + " data via JSON is not supported; send input '"
                + ClientText.name(tensor) + "' as binary data (parameters.binary_data_size)");
        }
        final JsonTensorReader reader = new JsonTensorReader(tensor, dataType, shape, expectedElements, out);
        final JsonScanner scanner = new JsonScanner(json, from, to);
        reader.readValue(scanner, 0);
        if (!scanner.atEnd())
        {
            throw scanner.error("The document root must not be followed by other values.");
        }
        if (reader.count != expectedElements)
        {
            throw reader.shapeMismatch();
        }
    }

    private void readValue(final JsonScanner scanner, final int nesting)
    {
        if (scanner.peekValue() != JsonScanner.ARRAY)
        {
            readElement(scanner);
            return;
        }
        if (nesting >= MAX_NESTING)
        {
            throw invalid("JSON nesting depth exceeds maximum allowed limit (" + MAX_NESTING + ") in 'data' of input '"
                + ClientText.name(tensor) + "'");
        }
        scanner.expect('[', "Invalid value.");
        if (scanner.consume(']'))
        {
            return;
        }
        do
        {
            readValue(scanner, nesting + 1);
        }
        while (scanner.consume(','));
        scanner.expect(']', "Missing a comma or ']' after an array element.");
    }

    private void readElement(final JsonScanner scanner)
    {
        if (count == expectedElements)
        {
            throw shapeMismatch();
        }
        final int kind = scanner.peekValue();
        switch (dataType)
        {
            case BOOL ->
            {
                if (kind != JsonScanner.BOOLEAN)
                {
                    throw badElement(scanner, kind, "true or false");
                }
                out.writeByte(scanner.readBoolean() ? 1 : 0);
            }
            case INT8 -> out.writeByte((int) integer(scanner, kind, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case INT16 -> out.writeShortLE((int) integer(scanner, kind, Short.MIN_VALUE, Short.MAX_VALUE));
            case INT32 -> out.writeIntLE((int) integer(scanner, kind, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case INT64 -> out.writeLongLE(integer(scanner, kind, Long.MIN_VALUE, Long.MAX_VALUE));
            case UINT8 -> out.writeByte((int) integer(scanner, kind, 0, 0xFF));
            case UINT16 -> out.writeShortLE((int) integer(scanner, kind, 0, 0xFFFF));
            case UINT32 -> out.writeIntLE((int) integer(scanner, kind, 0, 0xFFFF_FFFFL));
            case UINT64 -> out.writeLongLE(unsigned64(scanner, kind));
            case FP32 ->
            {
                final double value = number(scanner, kind);
                final float narrowed = (float) value;
                if (Float.isInfinite(narrowed) && !scanner.numberIsNonFinite())
                {
                    throw outOfRange(scanner, "FP32 (at most " + Float.MAX_VALUE + " in magnitude)");
                }
                out.writeFloatLE(narrowed);
            }
            case FP64 ->
            {
                final double value = number(scanner, kind);
                if (Double.isInfinite(value) && !scanner.numberIsNonFinite())
                {
                    throw outOfRange(scanner, "FP64 (at most " + Double.MAX_VALUE + " in magnitude)");
                }
                out.writeDoubleLE(value);
            }
            case BYTES ->
            {
                if (kind != JsonScanner.STRING)
                {
                    throw badElement(scanner, kind, "a JSON string");
                }
                final int lengthAt = out.writerIndex();
                out.writeIntLE(0);
                out.setIntLE(lengthAt, scanner.readString(out));
            }
            case FP16, BF16 -> throw new IllegalStateException("checked by read()");
        }
        count++;
    }

    private long integer(final JsonScanner scanner, final int kind, final long min, final long max)
    {
        if (kind != JsonScanner.NUMBER)
        {
            throw badElement(scanner, kind, expectation());
        }
        scanner.readNumber();
        try
        {
            return scanner.numberAsLong(min, max);
        }
        catch (final ArithmeticException refused)
        {
            throw badNumber(scanner, scanner.numberIsIntegral() ? expectation() + " in [" + min + ", " + max
                + "]" : expectation());
        }
    }

    private long unsigned64(final JsonScanner scanner, final int kind)
    {
        if (kind != JsonScanner.NUMBER)
        {
            throw badElement(scanner, kind, expectation());
        }
        scanner.readNumber();
        try
        {
            return scanner.numberAsUnsigned();
        }
        catch (final ArithmeticException refused)
        {
            throw badNumber(scanner, expectation() + " in [0, 18446744073709551615]");
        }
    }

    private double number(final JsonScanner scanner, final int kind)
    {
        if (kind != JsonScanner.NUMBER)
        {
            throw badElement(scanner, kind, "a JSON number");
        }
        scanner.readNumber();
        return scanner.numberAsDouble();
    }

    private String expectation()
    {
        return switch (dataType)
        {
            case BOOL -> "a boolean";
            case BYTES -> "a string";
            case FP32, FP64 -> "a number";
            case UINT8, UINT16, UINT32, UINT64 -> "a non-negative integer";
            default -> "an integer";
        };
    }

    private InferenceException badElement(final JsonScanner scanner, final int kind, final String expected)
    {
        final String shown = switch (kind)
        {
            case JsonScanner.ARRAY, JsonScanner.OBJECT -> kind == JsonScanner.ARRAY ? "an array" : "an object";
            case JsonScanner.STRING -> "a string";
            case JsonScanner.BOOLEAN -> scanner.readBoolean() ? "true" : "false";
            case JsonScanner.NULL ->
            {
                scanner.readNull();
                yield "null";
            }
            default ->
            {
                scanner.readNumber();
                yield numberShown(scanner);
            }
        };
        return invalid("unable to parse 'data' of input '" + ClientText.name(tensor) + "': element " + count + " is "
            + shown + ", expected " + expected + " for datatype " + dataType.wireName());
    }

    private InferenceException badNumber(final JsonScanner scanner, final String expected)
    {
        return invalid("unable to parse 'data' of input '" + ClientText.name(tensor) + "': element " + count + " is "
            + numberShown(scanner) + ", expected " + expected + " for datatype " + dataType.wireName());
    }

    private InferenceException outOfRange(final JsonScanner scanner, final String range)
    {
        return invalid("unable to parse 'data' of input '" + ClientText.name(tensor) + "': element " + count + " is "
            + numberShown(scanner) + ", outside the range of " + range);
    }

    private static String numberShown(final JsonScanner scanner)
    {
        final String text = scanner.numberLength() > SHOWN_CHARS
            ? scanner.numberText().substring(0, SHOWN_CHARS) + "..." : scanner.numberText();
        return text;
    }

    private InferenceException shapeMismatch()
    {
        return invalid("shape does not match true shape of 'data' field of input '" + ClientText.name(tensor)
            + "': shape " + Arrays.toString(shape) + " needs " + expectedElements + " elements, 'data' holds "
            + (count == expectedElements ? "more" : Long.toString(count)));
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
