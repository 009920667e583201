package io.ingot.server.testing;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An infer response read as tritonclient reads it: the JSON header (the whole body unless
 * {@code Inference-Header-Content-Length} says otherwise), and each binary output located by walking
 * {@code outputs} and summing {@code binary_data_size}.
 */
public final class InferResult
{
    private final int status;
    private final JsonObject json;
    private final Map<String, byte[]> binary = new LinkedHashMap<>();

    /**
     * @param response the HTTP response (decompressed)
     * @param body     its body
     */
    public InferResult(final HttpResponse<?> response, final byte[] body)
    {
        this.status = response.statusCode();
        final int headerLength = response.headers().firstValue("Inference-Header-Content-Length")
            .map(Integer::parseInt).orElse(body.length);
        this.json = JsonParser.parseString(new String(body, 0, headerLength, StandardCharsets.UTF_8))
            .getAsJsonObject();
        int offset = headerLength;
        final JsonArray outputs = json.getAsJsonArray("outputs");
        if (outputs != null)
        {
            for (final JsonElement element : outputs)
            {
                final JsonObject output = element.getAsJsonObject();
                final JsonObject parameters = output.getAsJsonObject("parameters");
                if (parameters != null && parameters.has("binary_data_size"))
                {
                    final int size = parameters.get("binary_data_size").getAsInt();
                    binary.put(output.get("name").getAsString(), Arrays.copyOfRange(body, offset, offset + size));
                    offset += size;
                }
            }
        }
        if (offset != body.length)
        {
            throw new AssertionError("response body has " + (body.length - offset) + " bytes not claimed by any "
                + "output's binary_data_size");
        }
    }

    /**
     * @param response a response with a byte[] body
     * @return it parsed
     */
    public static InferResult of(final HttpResponse<byte[]> response)
    {
        return new InferResult(response, response.body());
    }

    /** @return the HTTP status. */
    public int status()
    {
        return status;
    }

    /** @return the JSON header. */
    public JsonObject json()
    {
        return json;
    }

    /**
     * @param name output name
     * @return the output's JSON object
     */
    public JsonObject output(final String name)
    {
        for (final JsonElement element : json.getAsJsonArray("outputs"))
        {
            if (element.getAsJsonObject().get("name").getAsString().equals(name))
            {
                return element.getAsJsonObject();
            }
        }
        throw new AssertionError("no output '" + name + "' in " + json);
    }

    /**
     * @param name output name
     * @return its binary bytes, or null when it came back as JSON
     */
    public byte[] binary(final String name)
    {
        return binary.get(name);
    }

    /**
     * @param name output name
     * @return its values, binary or JSON, as floats
     */
    public float[] fp32(final String name)
    {
        final byte[] bytes = binary(name);
        if (bytes != null)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            final float[] values = new float[bytes.length / 4];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = buffer.getFloat();
            }
            return values;
        }
        final JsonArray data = output(name).getAsJsonArray("data");
        final float[] values = new float[data.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = data.get(i).getAsFloat();
        }
        return values;
    }

    /**
     * @param name output name
     * @return its values, binary or JSON, as ints
     */
    public int[] int32(final String name)
    {
        final byte[] bytes = binary(name);
        if (bytes != null)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            final int[] values = new int[bytes.length / 4];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = buffer.getInt();
            }
            return values;
        }
        final JsonArray data = output(name).getAsJsonArray("data");
        final int[] values = new int[data.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = data.get(i).getAsInt();
        }
        return values;
    }
}
