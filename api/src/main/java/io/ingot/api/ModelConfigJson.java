package io.ingot.api;

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
 * Renders a {@link ModelConfig} as JSON exactly as Triton's {@code /v2/models/<m>/config} endpoint does
 * ({@code ModelConfigToJson}): proto field names, fields without presence printed even when they hold their
 * default, and every 64-bit integer written as a JSON number (plain proto3 JSON writes them as strings). Map keys
 * stay strings, because JSON object keys are strings; {@link #fromJson} reads a configuration back. Stateless and
 * thread-safe.
 */
public final class ModelConfigJson
{
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer()
        .preservingProtoFieldNames()
        .alwaysPrintFieldsWithNoPresence()
        .omittingInsignificantWhitespace();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser();

    private ModelConfigJson()
    {
    }

    /**
     * @param config the configuration to render
     * @return compact JSON text; empty when {@code config} has no field set at all, as Triton returns for an empty
     *         configuration
     */
    public static String toJson(final ModelConfig config)
    {
        if (config.getSerializedSize() == 0)
        {
            return "";
        }
        final String protoJson;
        try
        {
            protoJson = PRINTER.print(config);
        }
        catch (final InvalidProtocolBufferException e)
        {
            // Only Any fields with unknown types make the printer fail; ModelConfig has none.
            throw new IllegalStateException("ModelConfig cannot be rendered as JSON: " + e.getMessage(), e);
        }
        final JsonObject tree = JsonParser.parseString(protoJson).getAsJsonObject();
        numberize(tree, ModelConfig.getDescriptor());
        return tree.toString();
    }

    /**
     * Parses a configuration from JSON as Triton's {@code JsonToModelConfig} does for a load request's
     * {@code config} override: proto field names (or their JSON names), integers as numbers or strings, unknown
     * fields refused.
     *
     * @param json the JSON text
     * @return the configuration
     * @throws IllegalArgumentException when the text is not a JSON model configuration; the message says why
     */
    public static ModelConfig fromJson(final String json)
    {
        final ModelConfig.Builder config = ModelConfig.newBuilder();
        try
        {
            PARSER.merge(json, config);
        }
        catch (final InvalidProtocolBufferException | RuntimeException e)
        {
            throw new IllegalArgumentException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
        return config.build();
    }

    /** Rewrites, in place, every 64-bit integer value below {@code object} from a JSON string to a JSON number. */
    private static void numberize(final JsonObject object, final Descriptor type)
    {
        for (final Map.Entry<String, JsonElement> member : object.entrySet())
        {
            final FieldDescriptor field = type.findFieldByName(member.getKey());
            if (field == null)
            {
                continue;
            }
            if (field.isMapField())
            {
                // Keys stay strings; values are converted like any singular value.
                final FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
                final JsonObject map = member.getValue().getAsJsonObject();
                for (final Map.Entry<String, JsonElement> entry : map.entrySet())
                {
                    entry.setValue(numberizeValue(entry.getValue(), valueField));
                }
            }
            else if (field.isRepeated())
            {
                final JsonArray array = member.getValue().getAsJsonArray();
                for (int i = 0; i < array.size(); i++)
                {
                    array.set(i, numberizeValue(array.get(i), field));
                }
            }
            else
            {
                member.setValue(numberizeValue(member.getValue(), field));
            }
        }
    }

    private static JsonElement numberizeValue(final JsonElement value, final FieldDescriptor field)
    {
        switch (field.getType())
        {
            case MESSAGE ->
            {
                if (value.isJsonObject())
                {
                    numberize(value.getAsJsonObject(), field.getMessageType());
                }
                return value;
            }
            case INT64, SINT64, SFIXED64, UINT64, FIXED64 ->
            {
                if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString())
                {
                    // Protobuf prints unsigned 64-bit values in unsigned decimal, so BigInteger holds them all.
                    return new JsonPrimitive(new BigInteger(value.getAsString()));
                }
                return value;
            }
            default ->
            {
                return value;
            }
        }
    }
}
