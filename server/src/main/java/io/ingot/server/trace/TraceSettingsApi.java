package io.ingot.server.trace;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.protocol.grpc.TraceSettingRequest;
import io.ingot.protocol.grpc.TraceSettingResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The trace extension's endpoints, {@code GET/POST /v2[/models/<m>]/trace/setting} and gRPC {@code TraceSetting}:
 * Triton's checks in Triton's order (a named model must be ready, "Request for unknown model : <m>"; the file cannot
 * be changed over the network; each value parsed with Triton's messages), then the setting in force. Thread-safe.
 */
public final class TraceSettingsApi
{
    private static final Gson GSON = new Gson();

    private final InferenceCore core;
    private final TraceManager manager;

    /**
     * @param core    the core, for model readiness
     * @param manager its trace settings
     */
    public TraceSettingsApi(final InferenceCore core, final TraceManager manager)
    {
        this.core = core;
        this.manager = manager;
    }

    /**
     * Answers the HTTP endpoint.
     *
     * @param model the model, or {@code null} for the global setting
     * @param post  whether it is an update
     * @param body  the request body (POST), possibly empty
     * @return the JSON of the setting in force
     * @throws InferenceException with Triton's message
     */
    public String http(final String model, final boolean post, final String body)
    {
        final String name = requireReady(model);
        if (post)
        {
            final JsonObject request = parse(body);
            manager.update(name, TraceUpdate.parse(values(request, "trace_file"), values(request, "trace_level"),
                values(request, "trace_rate"), values(request, "trace_count"), values(request, "log_frequency")));
        }
        return GSON.toJson(manager.setting(name));
    }

    /**
     * Answers the gRPC method.
     *
     * @param request the request
     * @return the setting in force
     * @throws InferenceException with Triton's message
     */
    public TraceSettingResponse grpc(final TraceSettingRequest request)
    {
        final String name = requireReady(request.getModelName().isEmpty() ? null : request.getModelName());
        if (request.getSettingsCount() > 0)
        {
            final Map<String, TraceSettingRequest.SettingValue> settings = request.getSettingsMap();
            manager.update(name, TraceUpdate.parse(grpcValues(settings, "trace_file"),
                grpcValues(settings, "trace_level"), grpcValues(settings, "trace_rate"),
                grpcValues(settings, "trace_count"), grpcValues(settings, "log_frequency")));
        }
        final TraceSettingResponse.Builder response = TraceSettingResponse.newBuilder();
        for (final Map.Entry<String, Object> entry : manager.setting(name).entrySet())
        {
            final TraceSettingResponse.SettingValue.Builder value = TraceSettingResponse.SettingValue.newBuilder();
            if (entry.getValue() instanceof List<?> list)
            {
                list.forEach(item -> value.addValue(item.toString()));
            }
            else
            {
                value.addValue(entry.getValue().toString());
            }
            response.putSettings(entry.getKey(), value.build());
        }
        return response.build();
    }

    private String requireReady(final String model)
    {
        if (model == null || model.isEmpty())
        {
            return "";
        }
        if (!core.isModelReady(model, InferenceRequest.DEFAULT_VERSION))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Request for unknown model : " + model);
        }
        return model;
    }

    private static JsonObject parse(final String body)
    {
        if (body == null || body.isBlank())
        {
            return new JsonObject();
        }
        try
        {
            final JsonElement json = JsonParser.parseString(body);
            if (!json.isJsonObject())
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "failed to parse the request JSON buffer:"
                    + " expected a JSON object of trace settings, got " + abbreviate(body));
            }
            return json.getAsJsonObject();
        }
        catch (final JsonSyntaxException ex)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "failed to parse the request JSON buffer: "
                + ex.getMessage());
        }
    }

    /** A field's values: {@code null} when absent, empty when JSON null, else its strings. */
    private static List<String> values(final JsonObject request, final String field)
    {
        if (!request.has(field))
        {
            return null;
        }
        final JsonElement value = request.get(field);
        if (value.isJsonNull())
        {
            return List.of();
        }
        final List<String> result = new ArrayList<>();
        if (field.equals("trace_level"))
        {
            if (!value.isJsonArray())
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "Unable to parse 'trace_level': expected an"
                    + " array of strings (OFF, TIMESTAMPS, TENSORS), got " + abbreviate(value.toString()));
            }
            for (final JsonElement item : (JsonArray) value)
            {
                result.add(string(field, item));
            }
            return result;
        }
        result.add(string(field, value));
        return result;
    }

    private static String string(final String field, final JsonElement value)
    {
        if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString())
        {
            // Triton's values are strings ("trace_rate": "100"); a bare number is refused as Triton refuses it.
            throw new InferenceException(ErrorCode.INVALID_ARG, "Unable to parse '" + field + "': expected a string"
                + " value, got " + abbreviate(value.toString()));
        }
        return value.getAsString();
    }

    private static List<String> grpcValues(final Map<String, TraceSettingRequest.SettingValue> settings,
        final String field)
    {
        final TraceSettingRequest.SettingValue value = settings.get(field);
        return value == null ? null : value.getValueList();
    }

    private static String abbreviate(final String text)
    {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
