package io.ingot.client.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import io.ingot.client.Datatype;
import io.ingot.client.InferenceServerException;
import io.ingot.client.TensorBytes;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Tensor data as KServe v2 JSON: an input's bytes to a JSON array (for {@code binary_data=False}) and an output's
 * JSON {@code data} back to bytes, so that both kinds of output read alike. Stateless and thread-safe.
 */
final class JsonTensors
{
    private JsonTensors()
    {
    }

    /**
     * @param name     the input, for messages
     * @param datatype its datatype
     * @param data     its bytes
     * @return the elements as JSON values
     */
    static JsonArray toJson(final String name, final Datatype datatype, final byte[] data)
    {
        final JsonArray array = new JsonArray();
        if (datatype == Datatype.FP16 || datatype == Datatype.BF16)
        {
            throw new InferenceServerException("datatype '" + datatype
                + "' is not supported with JSON. Please use the binary data format (input '" + name + "')");
        }
        final ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (datatype == Datatype.BYTES)
        {
            for (final byte[] element : TensorBytes.deserialize(in))
            {
                array.add(utf8(name, element));
            }
            return array;
        }
        while (in.hasRemaining())
        {
            switch (datatype)
            {
                case BOOL -> array.add(in.get() != 0);
                case UINT8 -> array.add(in.get() & 0xFF);
                case INT8 -> array.add(in.get());
                case UINT16 -> array.add(in.getShort() & 0xFFFF);
                case INT16 -> array.add(in.getShort());
                case UINT32 -> array.add(in.getInt() & 0xFFFFFFFFL);
                case INT32 -> array.add(in.getInt());
                case UINT64 -> array.add(new BigInteger(Long.toUnsignedString(in.getLong())));
                case INT64 -> array.add(in.getLong());
                case FP32 -> array.add(in.getFloat());
                case FP64 -> array.add(in.getDouble());
                default -> throw new IllegalStateException(datatype.name());
            }
        }
        return array;
    }

    /**
     * @param name     the output, for messages
     * @param datatype its datatype
     * @param data     its JSON {@code data}, flat or nested
     * @return the elements' bytes, as binary data would have carried them
     */
    static ByteBuffer fromJson(final String name, final Datatype datatype, final JsonArray data)
    {
        final List<JsonPrimitive> values = new ArrayList<>();
        flatten(data, values);
        if (datatype == Datatype.BYTES)
        {
            final List<byte[]> elements = new ArrayList<>(values.size());
            for (final JsonPrimitive value : values)
            {
                elements.add(value.getAsString().getBytes(StandardCharsets.UTF_8));
            }
            return ByteBuffer.wrap(TensorBytes.serialize(elements));
        }
        if (datatype == Datatype.FP16 || datatype == Datatype.BF16)
        {
            final float[] floats = new float[values.size()];
            for (int i = 0; i < floats.length; i++)
            {
                floats[i] = values.get(i).getAsFloat();
            }
            return ByteBuffer.wrap(TensorBytes.of(floats, datatype));
        }
        final ByteBuffer out = ByteBuffer.allocate(values.size() * datatype.elementBytes())
            .order(ByteOrder.LITTLE_ENDIAN);
        try
        {
            for (final JsonPrimitive value : values)
            {
                switch (datatype)
                {
                    case BOOL -> out.put((byte)(value.isBoolean() ? (value.getAsBoolean() ? 1 : 0)
                        : value.getAsInt() != 0 ? 1 : 0));
                    case UINT8, INT8 -> out.put((byte)value.getAsInt());
                    case UINT16, INT16 -> out.putShort((short)value.getAsInt());
                    case UINT32, INT32 -> out.putInt((int)value.getAsLong());
                    case UINT64 -> out.putLong(value.getAsBigInteger().longValue());
                    case INT64 -> out.putLong(value.getAsLong());
                    case FP32 -> out.putFloat(value.getAsFloat());
                    case FP64 -> out.putDouble(value.getAsDouble());
                    default -> throw new IllegalStateException(datatype.name());
                }
            }
        }
        catch (final NumberFormatException | UnsupportedOperationException bad)
        {
            throw new InferenceServerException("output '" + name + "' has a JSON value that is not " + datatype + ": "
                + bad.getMessage());
        }
        return out.flip();
    }

    private static void flatten(final JsonElement element, final List<JsonPrimitive> into)
    {
        if (element.isJsonArray())
        {
            for (final JsonElement child : element.getAsJsonArray())
            {
                flatten(child, into);
            }
        }
        else if (element.isJsonPrimitive())
        {
            into.add(element.getAsJsonPrimitive());
        }
        else
        {
            throw new InferenceServerException("unexpected JSON value in tensor data: " + element);
        }
    }

    private static String utf8(final String name, final byte[] element)
    {
        try
        {
            final CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(element));
            return chars.toString();
        }
        catch (final CharacterCodingException notUtf8)
        {
            // Triton's set_data_from_numpy(binary_data=False) on bytes that are not UTF-8.
            throw new InferenceServerException("Failed to encode \"" + new String(element, StandardCharsets.UTF_8)
                + "\" using UTF-8. Please use binary data (binaryData true), if you want to pass a byte array "
                + "(input '" + name + "').");
        }
    }
}
