package io.ingot.server.json;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.protocol.TensorLayout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Writes an output tensor's bytes as the flat JSON {@code data} array of Triton's HTTP response: numbers for numeric
 * types (FP32 widened to double, as Triton prints it), {@code true}/{@code false} for BOOL, strings for BYTES.
 * FP16 and BF16 cannot be sent as JSON.
 */
public final class JsonTensorWriter
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(LE);
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(LE);

    private JsonTensorWriter()
    {
    }

    /**
     * Checks before any byte is written that an output can be sent as JSON.
     *
     * @param output   the output's name
     * @param dataType its datatype
     * @throws InferenceException INVALID_ARG for FP16 and BF16
     */
    public static void checkJsonable(final String output, final DataType dataType)
    {
        if (dataType == DataType.FP16 || dataType == DataType.BF16)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "sending " + dataType.wireName()
                + " data via JSON is not supported; request output '" + output
                + "' with parameters.binary_data: true");
        }
    }

    /**
     * Writes {@code [e0,e1,...]}.
     *
     * @param json     where to write
     * @param output   the output's name, for messages
     * @param dataType its datatype
     * @param data     its bytes
     */
    public static void write(final JsonOutput json, final String output, final DataType dataType,
        final MemorySegment data)
    {
        checkJsonable(output, dataType);
        json.beginArray();
        elements(json, output, dataType, data);
        json.endArray();
    }

    /**
     * Writes a tensor as Triton's generate extension returns an output: its one element as a bare value, or the flat
     * array of its elements when it has none or several.
     *
     * @param json     where to write
     * @param output   the output's name, for messages
     * @param dataType its datatype
     * @param data     its bytes
     * @param elements its element count (the product of its shape)
     */
    public static void writeBareIfOne(final JsonOutput json, final String output, final DataType dataType,
        final MemorySegment data, final long elements)
    {
        if (elements != 1)
        {
            write(json, output, dataType, data);
            return;
        }
        checkJsonable(output, dataType);
        elements(json, output, dataType, data);
    }

    private static void elements(final JsonOutput json, final String output, final DataType dataType,
        final MemorySegment data)
    {
        final long size = data.byteSize();
        switch (dataType)
        {
            case BOOL ->
            {
                for (long i = 0; i < size; i++)
                {
                    json.value(data.get(ValueLayout.JAVA_BYTE, i) != 0);
                }
            }
            case INT8 ->
            {
                for (long i = 0; i < size; i++)
                {
                    json.value(data.get(ValueLayout.JAVA_BYTE, i));
                }
            }
            case UINT8 ->
            {
                for (long i = 0; i < size; i++)
                {
                    json.value(Byte.toUnsignedLong(data.get(ValueLayout.JAVA_BYTE, i)));
                }
            }
            case INT16 ->
            {
                for (long i = 0; i + 2 <= size; i += 2)
                {
                    json.value(data.get(SHORT, i));
                }
            }
            case UINT16 ->
            {
                for (long i = 0; i + 2 <= size; i += 2)
                {
                    json.value(Short.toUnsignedLong(data.get(SHORT, i)));
                }
            }
            case INT32 ->
            {
                for (long i = 0; i + 4 <= size; i += 4)
                {
                    json.value(data.get(INT, i));
                }
            }
            case UINT32 ->
            {
                for (long i = 0; i + 4 <= size; i += 4)
                {
                    json.value(Integer.toUnsignedLong(data.get(INT, i)));
                }
            }
            case INT64 ->
            {
                for (long i = 0; i + 8 <= size; i += 8)
                {
                    json.value(data.get(LONG, i));
                }
            }
            case UINT64 ->
            {
                for (long i = 0; i + 8 <= size; i += 8)
                {
                    json.unsignedValue(data.get(LONG, i));
                }
            }
            case FP32 ->
            {
                for (long i = 0; i + 4 <= size; i += 4)
                {
                    json.value((double) data.get(FLOAT, i));
                }
            }
            case FP64 ->
            {
                for (long i = 0; i + 8 <= size; i += 8)
                {
                    json.value(data.get(DOUBLE, i));
                }
            }
            case BYTES -> writeBytes(json, output, data);
            case FP16, BF16 -> throw new IllegalStateException("checked above");
        }
    }

    private static void writeBytes(final JsonOutput json, final String output, final MemorySegment data)
    {
        final long size = data.byteSize();
        long offset = 0;
        while (offset < size)
        {
            if (size - offset < Integer.BYTES)
            {
                throw malformed(output, offset);
            }
            final long length = Integer.toUnsignedLong(data.get(TensorLayout.LENGTH_PREFIX, offset));
            offset += Integer.BYTES;
            if (length > size - offset || length > Integer.MAX_VALUE - 16)
            {
                throw malformed(output, offset - Integer.BYTES);
            }
            final byte[] element = data.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
            json.utf8Value(element);
            offset += length;
        }
    }

    private static InferenceException malformed(final String output, final long offset)
    {
        return new InferenceException(ErrorCode.INTERNAL, "BYTES output '" + output
            + "' is malformed: its length prefix at byte " + offset + " runs past the end of the tensor");
    }
}
