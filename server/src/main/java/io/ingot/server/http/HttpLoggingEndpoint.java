package io.ingot.server.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.json.JsonBodies;
import io.ingot.server.json.JsonOutput;
import io.ingot.server.logging.LogSettings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.util.function.Supplier;

/**
 * {@code GET/POST /v2/logging}, Triton's logging extension over HTTP (server src/http_server.cc
 * {@code HandleLogging}): POST changes any of {@code log_info}, {@code log_warning}, {@code log_error} (booleans),
 * {@code log_verbose_level} (unsigned integer) and {@code log_format} ({@code "default"} or {@code "ISO8601"});
 * {@code null} leaves a setting as it is; a non-null {@code log_file} is refused (501, Triton's text); both methods
 * answer the settings in force. Errors carry Triton's text and status first: a wrongly typed value is 400, an
 * unknown format 503 (Triton answers UNAVAILABLE there). Nothing changes when any value is refused.
 */
final class HttpLoggingEndpoint
{
    private static final String CONTEXT = "the log settings request";

    private HttpLoggingEndpoint()
    {
    }

    static FullHttpResponse handle(final HttpRoute.Logging route, final ByteBuf body, final ByteBufAllocator alloc)
    {
        final LogSettings settings = LogSettings.global();
        final LogSettings.Snapshot now = route.update() && body.isReadable()
            ? settings.update(change(JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()), CONTEXT)))
            : settings.current();
        final ByteBuf out = alloc.buffer(160);
        new JsonOutput(out).beginObject()
            .name("log_file").value(now.logFile())
            .name("log_info").value(now.info())
            .name("log_warning").value(now.warning())
            .name("log_error").value(now.error())
            .name("log_verbose_level").value(now.verboseLevel())
            .name("log_format").value(now.format().settingName())
            .endObject();
        return HttpResponses.json(HttpResponseStatus.OK, out);
    }

    private static LogSettings.Change change(final JsonObject request)
    {
        if (isSet(request.get("log_file")))
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "log file location can not be updated through "
                + "network protocol");
        }
        final Integer verbose;
        final JsonElement level = request.get("log_verbose_level");
        if (isSet(level))
        {
            final long value = asTriton("attempt to access JSON non-unsigned-integer as unsigned-integer",
                () -> JsonBodies.unsigned64(level, "log_verbose_level", CONTEXT));
            // Triton keeps the level in an int32; larger values log everything, as they do there.
            verbose = Long.compareUnsigned(value, Integer.MAX_VALUE) > 0 ? Integer.MAX_VALUE : (int) value;
        }
        else
        {
            verbose = null;
        }
        LogSettings.Format format = null;
        final JsonElement formatValue = request.get("log_format");
        if (isSet(formatValue))
        {
            final String name = asTriton("attempt to access JSON non-string as string",
                () -> JsonBodies.optionalString(request, "log_format", CONTEXT));
            format = LogSettings.Format.of(name);
            if (format == null)
            {
                throw new InferenceException(ErrorCode.UNAVAILABLE, "invalid argument for --log_format, got: " + name
                    + " (expected \"default\" or \"ISO8601\")");
            }
        }
        return new LogSettings.Change(bool(request, "log_info"), bool(request, "log_warning"),
            bool(request, "log_error"), verbose, format);
    }

    private static Boolean bool(final JsonObject request, final String key)
    {
        final JsonElement value = request.get(key);
        if (!isSet(value))
        {
            return null;
        }
        return asTriton("attempt to access JSON non-boolean as boolean", () -> JsonBodies.bool(value, key, CONTEXT));
    }

    /** Reads a value; a refusal carries TritonJson's text for the type first, then Ingot's naming the key. */
    private static <T> T asTriton(final String tritonText, final Supplier<T> read)
    {
        try
        {
            return read.get();
        }
        catch (final InferenceException wrongType)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, tritonText + " (" + wrongType.getMessage() + ")");
        }
    }

    private static boolean isSet(final JsonElement value)
    {
        return value != null && !value.isJsonNull();
    }
}
