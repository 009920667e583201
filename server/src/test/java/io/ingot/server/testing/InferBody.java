package io.ingot.server.testing;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Builds an infer request body as Triton's clients do: a JSON header, then the binary inputs in input order, with
 * {@code Inference-Header-Content-Length} set when some input is binary; no Content-Type.
 */
public final class InferBody
{
    private final JsonObject root = new JsonObject();
    private final JsonArray inputs = new JsonArray();
    private JsonArray outputs;
    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

    /** Starts an empty request. */
    public InferBody()
    {
        root.add("inputs", inputs);
    }

    /**
     * @param id request id
     * @return this
     */
    public InferBody id(final String id)
    {
        root.addProperty("id", id);
        return this;
    }

    /**
     * @param key   request parameter
     * @param value its value
     * @return this
     */
    public InferBody parameter(final String key, final JsonElement value)
    {
        if (!root.has("parameters"))
        {
            root.add("parameters", new JsonObject());
        }
        root.getAsJsonObject("parameters").add(key, value);
        return this;
    }

    /**
     * Adds an input whose data is sent as binary.
     *
     * @param name     input name
     * @param datatype datatype
     * @param shape    shape
     * @param bytes    its bytes
     * @return this
     */
    public InferBody binaryInput(final String name, final String datatype, final long[] shape, final byte[] bytes)
    {
        final JsonObject input = tensor(name, datatype, shape);
        final JsonObject parameters = new JsonObject();
        parameters.addProperty("binary_data_size", bytes.length);
        input.add("parameters", parameters);
        inputs.add(input);
        binary.writeBytes(bytes);
        return this;
    }

    /**
     * Adds an input whose data is JSON.
     *
     * @param name     input name
     * @param datatype datatype
     * @param shape    shape
     * @param data     the {@code data} value
     * @return this
     */
    public InferBody jsonInput(final String name, final String datatype, final long[] shape, final JsonElement data)
    {
        final JsonObject input = tensor(name, datatype, shape);
        input.add("data", data);
        inputs.add(input);
        return this;
    }

    /**
     * Adds an input in shared memory.
     *
     * @param name     input name
     * @param datatype datatype
     * @param shape    shape
     * @param region   region name
     * @param offset   offset in the region
     * @param size     byte size
     * @return this
     */
    public InferBody shmInput(final String name, final String datatype, final long[] shape, final String region,
        final long offset, final long size)
    {
        final JsonObject input = tensor(name, datatype, shape);
        input.add("parameters", shm(region, offset, size));
        inputs.add(input);
        return this;
    }

    /**
     * Requests an output.
     *
     * @param name       output name
     * @param binaryData the {@code binary_data} parameter
     * @return this
     */
    public InferBody output(final String name, final boolean binaryData)
    {
        final JsonObject output = new JsonObject();
        output.addProperty("name", name);
        final JsonObject parameters = new JsonObject();
        parameters.addProperty("binary_data", binaryData);
        output.add("parameters", parameters);
        outputs().add(output);
        return this;
    }

    /**
     * Requests an output into shared memory.
     *
     * @param name   output name
     * @param region region name
     * @param offset offset in the region
     * @param size   byte size
     * @return this
     */
    public InferBody shmOutput(final String name, final String region, final long offset, final long size)
    {
        final JsonObject output = new JsonObject();
        output.addProperty("name", name);
        output.add("parameters", shm(region, offset, size));
        outputs().add(output);
        return this;
    }

    /** @return the JSON header. */
    public String json()
    {
        return root.toString();
    }

    /** @return header then binary data. */
    public byte[] bytes()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(json().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(binary.toByteArray());
        return out.toByteArray();
    }

    /** @return true when some input is binary. */
    public boolean hasBinary()
    {
        return binary.size() > 0;
    }

    /**
     * @param url the infer URL
     * @return the HTTP request, as tritonclient sends it (no Content-Type)
     */
    public HttpRequest request(final String url)
    {
        final HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.ofByteArray(bytes()));
        if (hasBinary())
        {
            builder.header("Inference-Header-Content-Length",
                Integer.toString(json().getBytes(StandardCharsets.UTF_8).length));
        }
        return builder.build();
    }

    /**
     * @param values floats
     * @return their little-endian bytes
     */
    public static byte[] fp32(final float... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            buffer.putFloat(value);
        }
        return buffer.array();
    }

    /**
     * @param values ints
     * @return their little-endian bytes
     */
    public static byte[] int32(final int... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final int value : values)
        {
            buffer.putInt(value);
        }
        return buffer.array();
    }

    /**
     * @param elements strings
     * @return the BYTES tensor layout: 4-byte little-endian lengths and UTF-8 bytes
     */
    public static byte[] bytesTensor(final String... elements)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final String element : elements)
        {
            final byte[] utf8 = element.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(utf8.length).array());
            out.writeBytes(utf8);
        }
        return out.toByteArray();
    }

    private JsonArray outputs()
    {
        if (outputs == null)
        {
            outputs = new JsonArray();
            root.add("outputs", outputs);
        }
        return outputs;
    }

    private static JsonObject tensor(final String name, final String datatype, final long[] shape)
    {
        final JsonObject tensor = new JsonObject();
        tensor.addProperty("name", name);
        tensor.addProperty("datatype", datatype);
        final JsonArray dims = new JsonArray();
        for (final long dim : shape)
        {
            dims.add(dim);
        }
        tensor.add("shape", dims);
        return tensor;
    }

    private static JsonObject shm(final String region, final long offset, final long size)
    {
        final JsonObject parameters = new JsonObject();
        parameters.addProperty("shared_memory_region", region);
        parameters.addProperty("shared_memory_byte_size", size);
        if (offset != 0)
        {
            parameters.addProperty("shared_memory_offset", offset);
        }
        return parameters;
    }
}
