package io.ingot.client.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.ingot.client.Datatype;
import io.ingot.client.InferResult;
import io.ingot.client.InferenceServerException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an HTTP inference response as Triton's {@code InferResult} does: the JSON header (all of the body, or its
 * first {@code Inference-Header-Content-Length} bytes), then each output with a {@code binary_data_size} takes the
 * next that many bytes of what follows. Outputs sent as JSON are converted to the same bytes. Stateless.
 */
final class HttpInferResults
{
    private HttpInferResults()
    {
    }

    /**
     * @param body         the (decompressed) response body
     * @param headerLength   the JSON header's length, or -1 when the whole body is JSON
     * @param inSharedMemory the outputs the request placed in shared memory, with their regions
     * @return the result
     * @throws InferenceServerException when the body is not a well-formed inference response
     */
    static InferResult read(final byte[] body, final int headerLength, final Map<String, String> inSharedMemory)
    {
        final int jsonEnd = headerLength < 0 ? body.length : headerLength;
        if (jsonEnd > body.length)
        {
            throw new InferenceServerException("malformed inference response: Inference-Header-Content-Length "
                + headerLength + " exceeds the body's " + body.length + " bytes");
        }
        final JsonObject json = parse(new String(body, 0, jsonEnd, StandardCharsets.UTF_8));
        int offset = jsonEnd;
        final List<InferResult.Output> outputs = new ArrayList<>();
        final JsonArray outputArray = json.has("outputs") ? json.getAsJsonArray("outputs") : new JsonArray();
        for (final JsonElement element : outputArray)
        {
            final JsonObject output = element.getAsJsonObject();
            final String name = output.get("name").getAsString();
            final String datatype = output.get("datatype").getAsString();
            final long[] shape = shape(output.getAsJsonArray("shape"));
            final Map<String, Object> parameters = parameters(output.getAsJsonObject("parameters"));
            if (inSharedMemory.containsKey(name))
            {
                parameters.putIfAbsent("shared_memory_region", inSharedMemory.get(name));
            }
            ByteBuffer data = null;
            if (parameters.get("binary_data_size") instanceof Number size)
            {
                final long bytes = size.longValue();
                if (bytes < 0 || offset + bytes > body.length)
                {
                    throw new InferenceServerException("malformed inference response: output '" + name + "' claims "
                        + bytes + " binary bytes with " + (body.length - offset) + " left in the body");
                }
                data = ByteBuffer.wrap(body, offset, (int)bytes).slice();
                offset += (int)bytes;
            }
            else if (output.has("data"))
            {
                data = JsonTensors.fromJson(name, Datatype.of(datatype), output.getAsJsonArray("data"));
            }
            outputs.add(new InferResult.Output(name, datatype, shape, data, parameters));
        }
        return new InferResult(text(json, "model_name"), text(json, "model_version"), text(json, "id"),
            parameters(json.getAsJsonObject("parameters")), outputs);
    }

    /**
     * @param text JSON text
     * @return the object it holds
     * @throws InferenceServerException when it is not a JSON object
     */
    static JsonObject parse(final String text)
    {
        try
        {
            final JsonElement element = JsonParser.parseString(text);
            if (!element.isJsonObject())
            {
                throw new InferenceServerException("expected a JSON object from the server, got: " + abbreviate(text));
            }
            return element.getAsJsonObject();
        }
        catch (final JsonParseException bad)
        {
            throw new InferenceServerException("failed to parse the server's JSON response: " + bad.getMessage()
                + "; response: " + abbreviate(text));
        }
    }

    private static long[] shape(final JsonArray array)
    {
        final long[] shape = new long[array == null ? 0 : array.size()];
        for (int i = 0; i < shape.length; i++)
        {
            shape[i] = array.get(i).getAsLong();
        }
        return shape;
    }

    private static Map<String, Object> parameters(final JsonObject object)
    {
        final Map<String, Object> parameters = new LinkedHashMap<>();
        if (object != null)
        {
            for (final Map.Entry<String, JsonElement> entry : object.entrySet())
            {
                if (entry.getValue() instanceof JsonPrimitive primitive)
                {
                    parameters.put(entry.getKey(), primitive.isBoolean() ? (Object)primitive.getAsBoolean()
                        : primitive.isNumber() ? (Object)number(primitive) : primitive.getAsString());
                }
            }
        }
        return parameters;
    }

    private static Number number(final JsonPrimitive primitive)
    {
        final String text = primitive.getAsString();
        return text.contains(".") || text.contains("e") || text.contains("E") ? (Number)primitive.getAsDouble()
            : (Number)primitive.getAsLong();
    }

    private static String text(final JsonObject json, final String member)
    {
        return json.has(member) && !json.get(member).isJsonNull() ? json.get(member).getAsString() : "";
    }

    static String abbreviate(final String text)
    {
        return text.length() <= 512 ? text : text.substring(0, 512) + "... (" + text.length() + " characters)";
    }
}
