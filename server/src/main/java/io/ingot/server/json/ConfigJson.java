package io.ingot.server.json;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.ingot.config.proto.ModelConfig;

import java.math.BigInteger;
import java.util.Map;

/**
 * Renders a {@link ModelConfig} as Triton's {@code GET /v2/models/<m>/config} returns it: protobuf JSON with proto
 * field names, every field without presence printed (so {@code max_batch_size} is always there and an absent
 * {@code dynamic_batching} stays absent), enums by name, and 64-bit integers as JSON numbers rather than the
 * strings plain protobuf JSON uses.
 *
 * <p>Interim renderer of the server module; {@code io.ingot.config.ModelConfigJson} replaces it once it is on main.
 */
public final class ConfigJson
{
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer()
        .preservingProtoFieldNames()
        .alwaysPrintFieldsWithNoPresence()
        .omittingInsignificantWhitespace();
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private ConfigJson()
    {
    }

    /**
     * @param config a model configuration
     * @return its JSON, as Triton renders it
     */
    public static String toJson(final ModelConfig config)
    {
        final String protoJson;
        try
        {
            protoJson = PRINTER.print(config);
        }
        catch (final InvalidProtocolBufferException impossible)
        {
            throw new IllegalStateException("model config of '" + config.getName() + "' cannot be printed as JSON",
                impossible);
        }
        final JsonObject tree = JsonParser.parseString(protoJson).getAsJsonObject();
        numberInt64Fields(tree, ModelConfig.getDescriptor());
        return GSON.toJson(tree);
    }

    private static void numberInt64Fields(final JsonObject object, final Descriptor descriptor)
    {
        for (final Map.Entry<String, JsonElement> entry : object.entrySet())
        {
            final FieldDescriptor field = descriptor.findFieldByName(entry.getKey());
            if (field == null)
            {
                continue;
            }
            if (field.isMapField())
            {
                final FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
                final JsonObject map = entry.getValue().getAsJsonObject();
                for (final Map.Entry<String, JsonElement> mapEntry : map.entrySet())
                {
                    mapEntry.setValue(convert(mapEntry.getValue(), valueField));
                }
            }
            else if (field.isRepeated())
            {
                final JsonArray array = entry.getValue().getAsJsonArray();
                for (int i = 0; i < array.size(); i++)
                {
                    array.set(i, convert(array.get(i), field));
                }
            }
            else
            {
                entry.setValue(convert(entry.getValue(), field));
            }
        }
    }

    private static JsonElement convert(final JsonElement value, final FieldDescriptor field)
    {
        return switch (field.getJavaType())
        {
            case LONG ->
                value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()
                    ? new JsonPrimitive(new BigInteger(value.getAsString()))
                    : value;
            case MESSAGE ->
            {
                if (value.isJsonObject())
                {
                    numberInt64Fields(value.getAsJsonObject(), field.getMessageType());
                }
                yield value;
            }
            default -> value;
        };
    }
}
