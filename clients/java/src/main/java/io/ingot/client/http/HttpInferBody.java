package io.ingot.client.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ingot.client.Datatype;
import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An HTTP inference request's body as Triton's client writes it ({@code _get_inference_request}): the JSON header,
 * then each binary input's bytes in input order; {@code jsonSize} is the header's length for
 * {@code Inference-Header-Content-Length}, or -1 when the JSON is the whole body.
 *
 * @param parts    the body, in order (the JSON first); the inputs' arrays are not copied
 * @param jsonSize the JSON header's size, or -1
 * @param length   the body's total size
 */
record HttpInferBody(List<byte[]> parts, int jsonSize, long length)
{
    /**
     * @param inputs  the inputs
     * @param outputs the outputs asked for (none: every output, binary)
     * @param options the request's options
     * @return the body
     */
    static HttpInferBody of(final List<InferInput> inputs, final List<InferRequestedOutput> outputs,
        final InferOptions options)
    {
        final JsonObject request = new JsonObject();
        final JsonObject parameters = new JsonObject();
        if (!options.requestId().isEmpty())
        {
            request.addProperty("id", options.requestId());
        }
        if (options.hasSequence())
        {
            if (options.sequenceIdString() != null)
            {
                parameters.addProperty("sequence_id", options.sequenceIdString());
            }
            else
            {
                parameters.addProperty("sequence_id", options.sequenceId());
            }
            parameters.addProperty("sequence_start", options.sequenceStart());
            parameters.addProperty("sequence_end", options.sequenceEnd());
        }
        if (options.priority() != 0)
        {
            parameters.addProperty("priority", options.priority());
        }
        if (options.timeoutMicros() != null)
        {
            parameters.addProperty("timeout", options.timeoutMicros());
        }
        final List<byte[]> binary = new ArrayList<>();
        final JsonArray inputTensors = new JsonArray();
        for (final InferInput input : inputs)
        {
            inputTensors.add(inputTensor(input, binary));
        }
        request.add("inputs", inputTensors);
        if (outputs.isEmpty())
        {
            parameters.addProperty("binary_data_output", true);
        }
        else
        {
            final JsonArray outputTensors = new JsonArray();
            for (final InferRequestedOutput output : outputs)
            {
                outputTensors.add(outputTensor(output));
            }
            request.add("outputs", outputTensors);
        }
        for (final Map.Entry<String, Object> custom : options.parameters().entrySet())
        {
            switch (custom.getValue())
            {
                case String text -> parameters.addProperty(custom.getKey(), text);
                case Boolean flag -> parameters.addProperty(custom.getKey(), flag);
                case Number number -> parameters.addProperty(custom.getKey(), number);
                default -> throw new IllegalStateException("checked by InferOptions");
            }
        }
        if (!parameters.isEmpty())
        {
            request.add("parameters", parameters);
        }
        final byte[] json = request.toString().getBytes(StandardCharsets.UTF_8);
        final List<byte[]> parts = new ArrayList<>(1 + binary.size());
        parts.add(json);
        parts.addAll(binary);
        long length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        return new HttpInferBody(parts, binary.isEmpty() ? -1 : json.length, length);
    }

    private static JsonObject inputTensor(final InferInput input, final List<byte[]> binary)
    {
        final JsonObject tensor = new JsonObject();
        tensor.addProperty("name", input.name());
        final JsonArray shape = new JsonArray();
        for (final long dimension : input.shape())
        {
            shape.add(dimension);
        }
        tensor.add("shape", shape);
        tensor.addProperty("datatype", input.datatype());
        final JsonObject parameters = new JsonObject();
        if (input.sharedMemoryRegion() != null)
        {
            parameters.addProperty("shared_memory_region", input.sharedMemoryRegion());
            parameters.addProperty("shared_memory_byte_size", input.sharedMemoryByteSize());
            if (input.sharedMemoryOffset() != 0)
            {
                parameters.addProperty("shared_memory_offset", input.sharedMemoryOffset());
            }
        }
        else if (input.rawData() != null && input.binaryData())
        {
            parameters.addProperty("binary_data_size", input.rawData().length);
            binary.add(input.rawData());
        }
        else if (input.rawData() != null)
        {
            tensor.add("data", JsonTensors.toJson(input.name(), Datatype.of(input.datatype()), input.rawData()));
        }
        if (!parameters.isEmpty())
        {
            tensor.add("parameters", parameters);
        }
        return tensor;
    }

    private static JsonObject outputTensor(final InferRequestedOutput output)
    {
        final JsonObject tensor = new JsonObject();
        tensor.addProperty("name", output.name());
        final JsonObject parameters = new JsonObject();
        if (output.classCount() != 0)
        {
            parameters.addProperty("classification", output.classCount());
        }
        if (output.sharedMemoryRegion() != null)
        {
            parameters.addProperty("binary_data", false);
            parameters.addProperty("shared_memory_region", output.sharedMemoryRegion());
            parameters.addProperty("shared_memory_byte_size", output.sharedMemoryByteSize());
            if (output.sharedMemoryOffset() != 0)
            {
                parameters.addProperty("shared_memory_offset", output.sharedMemoryOffset());
            }
        }
        else
        {
            parameters.addProperty("binary_data", output.binaryData());
        }
        tensor.add("parameters", parameters);
        return tensor;
    }
}
