package io.ingot.server.json;

import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;

import java.util.Map;
import java.util.TreeMap;

/**
 * The response object of Triton's generate extension ({@code server src/http_server.cc}
 * {@code GenerateRequestClass::FinalizeResponse}): {@code id} (when the request had one), {@code model_name},
 * {@code model_version} and each output under its own name, an output of one element as a bare value and any other
 * as the flat array of its elements. The keys come in the order of Triton's {@code std::map}: sorted by their bytes,
 * and a reserved key wins over an output of the same name.
 */
public final class GenerateJson
{
    private static final int ID = -1;
    private static final int MODEL_NAME = -2;
    private static final int MODEL_VERSION = -3;

    private GenerateJson()
    {
    }

    /**
     * Writes one successful response.
     *
     * @param json     where to write
     * @param response the response ({@link InferenceResponse#isOk()})
     */
    public static void response(final JsonOutput json, final InferenceResponse response)
    {
        final Map<String, Integer> keys = new TreeMap<>();
        if (!response.id().isEmpty())
        {
            keys.put("id", ID);
        }
        keys.put("model_name", MODEL_NAME);
        keys.put("model_version", MODEL_VERSION);
        for (int i = 0; i < response.outputCount(); i++)
        {
            keys.putIfAbsent(response.output(i).name(), i);
        }
        json.beginObject();
        for (final Map.Entry<String, Integer> key : keys.entrySet())
        {
            json.name(key.getKey());
            switch (key.getValue())
            {
                case ID -> json.value(response.id());
                case MODEL_NAME -> json.value(response.modelName());
                case MODEL_VERSION -> json.value(Long.toString(response.modelVersion()));
                default ->
                {
                    final OutputTensor tensor = response.output(key.getValue());
                    long elements = 1;
                    for (final long dim : tensor.shape())
                    {
                        elements *= dim;
                    }
                    JsonTensorWriter.writeBareIfOne(json, tensor.name(), tensor.dataType(), tensor.data(),
                        elements);
                }
            }
        }
        json.endObject();
    }
}
