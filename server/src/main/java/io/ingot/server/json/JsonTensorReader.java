package io.ingot.server.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Converts the JSON {@code data} of an input tensor into its binary layout (little-endian, row-major, BYTES with
 * length prefixes), checking every element against the datatype and the element count against the shape, as
 * Triton's HTTP frontend does. Nested arrays are flattened row-major, up to {@value #MAX_NESTING} levels.
 */
public final class JsonTensorReader
{
    /** Deepest nesting of {@code data} arrays accepted (Triton's limit). */
    public static final int MAX_NESTING = 100;

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
     * @param data             the JSON {@code data} value: an array, possibly nested
     * @param out              where the bytes go
     * @throws InferenceException INVALID_ARG naming the input and the offending element
     */
    public static void read(final String tensor, final DataType dataType, final long[] shape,
        final long expectedElements, final JsonElement data, final ByteBuf out)
    {
        if (dataType == DataType.FP16 || dataType == DataType.BF16)
        {
            throw invalid("receiving " + dataType.wireName() + " data via JSON is not supported; send input '"
                + tensor + "' as binary data (parameters.binary_data_size)");
        }
        final JsonTensorReader reader = new JsonTensorReader(tensor, dataType, shape, expectedElements, out);
        if (data.isJsonArray())
        {
            reader.readArray(data.getAsJsonArray(), 1);
        }
        else
        {
            reader.readElement(data);
        }
        if (reader.count != expectedElements)
        {
            throw reader.shapeMismatch();
        }
    }

    private void readArray(final JsonArray array, final int nesting)
    {
        if (nesting > MAX_NESTING)
        {
            throw invalid("'data' of input '" + tensor + "' is nested deeper than " + MAX_NESTING + " levels");
        }
        for (final JsonElement element : array)
        {
            if (element.isJsonArray())
            {
                readArray(element.getAsJsonArray(), nesting + 1);
            }
            else
            {
                readElement(element);
            }
        }
    }

    private void readElement(final JsonElement element)
    {
        if (count == expectedElements)
        {
            throw shapeMismatch();
        }
        if (!element.isJsonPrimitive())
        {
            throw badElement(element, "a " + expectation());
        }
        final JsonPrimitive value = element.getAsJsonPrimitive();
        switch (dataType)
        {
            case BOOL ->
            {
                if (!value.isBoolean())
                {
                    throw badElement(element, "true or false");
                }
                out.writeByte(value.getAsBoolean() ? 1 : 0);
            }
            case INT8 -> out.writeByte((int) integer(value, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case INT16 -> out.writeShortLE((int) integer(value, Short.MIN_VALUE, Short.MAX_VALUE));
            case INT32 -> out.writeIntLE((int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case INT64 -> out.writeLongLE(integer(value, Long.MIN_VALUE, Long.MAX_VALUE));
            case UINT8 -> out.writeByte((int) integer(value, 0, 0xFF));
            case UINT16 -> out.writeShortLE((int) integer(value, 0, 0xFFFF));
            case UINT32 -> out.writeIntLE((int) integer(value, 0, 0xFFFF_FFFFL));
            case UINT64 -> out.writeLongLE(unsigned64(value));
            case FP32 -> out.writeFloatLE((float) number(value));
            case FP64 -> out.writeDoubleLE(number(value));
            case BYTES ->
            {
                if (!value.isString())
                {
                    throw badElement(element, "a JSON string");
                }
                final byte[] bytes = value.getAsString().getBytes(StandardCharsets.UTF_8);
                out.writeIntLE(bytes.length);
                out.writeBytes(bytes);
            }
            case FP16, BF16 -> throw new IllegalStateException("checked by read()");
        }
        count++;
    }

    private long integer(final JsonPrimitive value, final long min, final long max)
    {
        if (!value.isNumber())
        {
            throw badElement(value, "a " + expectation());
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value.getAsString());
        }
        catch (final NumberFormatException notLong)
        {
            throw badElement(value, "a " + expectation());
        }
        if (parsed < min || parsed > max)
        {
            throw badElement(value, "a " + expectation() + " in [" + min + ", " + max + "]");
        }
        return parsed;
    }

    private long unsigned64(final JsonPrimitive value)
    {
        if (!value.isNumber())
        {
            throw badElement(value, "a " + expectation());
        }
        try
        {
            final String text = value.getAsString();
            if (text.startsWith("-") || text.startsWith("+"))
            {
                throw new NumberFormatException(text);
            }
            return Long.parseUnsignedLong(text);
        }
        catch (final NumberFormatException notUnsigned)
        {
            throw badElement(value, "a " + expectation() + " in [0, 18446744073709551615]");
        }
    }

    private double number(final JsonPrimitive value)
    {
        if (!value.isNumber())
        {
            throw badElement(value, "a JSON number");
        }
        return value.getAsDouble();
    }

    private String expectation()
    {
        return switch (dataType)
        {
            case BOOL -> "boolean";
            case BYTES -> "string";
            case FP32, FP64 -> "number";
            case UINT8, UINT16, UINT32, UINT64 -> "non-negative integer";
            default -> "integer";
        };
    }

    private InferenceException badElement(final JsonElement element, final String expected)
    {
        String shown = element.toString();
        if (shown.length() > 40)
        {
            shown = shown.substring(0, 40) + "...";
        }
        return invalid("unable to parse 'data' of input '" + tensor + "': element " + count + " is " + shown
            + ", expected " + expected + " for datatype " + dataType.wireName());
    }

    private InferenceException shapeMismatch()
    {
        return invalid("shape does not match true shape of 'data' field of input '" + tensor + "': shape "
            + Arrays.toString(shape) + " needs " + expectedElements + " elements, 'data' holds "
            + (count == expectedElements ? "more" : Long.toString(count)));
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
