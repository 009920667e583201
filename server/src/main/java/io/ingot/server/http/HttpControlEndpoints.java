package io.ingot.server.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ServerMetadata;
import io.ingot.api.ModelConfigJson;
import io.ingot.server.json.JsonBodies;
import io.ingot.server.json.JsonOutput;
import io.ingot.server.json.MetadataJson;
import io.ingot.server.json.StatisticsJson;
import io.ingot.server.protocol.ServerExtensions;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.trace.TraceManager;
import io.ingot.server.trace.TraceSettingsApi;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The HTTP endpoints other than inference: health, metadata, configuration, statistics, repository control and
 * system shared memory. Each call returns the complete response; errors are thrown as {@link InferenceException}s
 * with Triton's categories. Only {@link HttpRoute.RepositoryControl} may block (a model load), which is why
 * {@link #blocks} tells the caller to run it off the event loop.
 */
public final class HttpControlEndpoints
{
    /** The prefix of a load parameter that carries a file of the model directory. */
    private static final String FILE_PREFIX = "file:";

    private final InferenceCore core;
    private final SystemSharedMemoryRegistry sharedMemory;
    private final TraceSettingsApi traceSettings;

    /**
     * @param core         the core
     * @param sharedMemory registered regions
     */
    public HttpControlEndpoints(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory)
    {
        this.core = core;
        this.sharedMemory = sharedMemory;
        this.traceSettings = new TraceSettingsApi(core, TraceManager.forCore(core));
    }

    /**
     * @param route a route
     * @return true when handling it may block for long (load and unload)
     */
    public static boolean blocks(final HttpRoute route)
    {
        return route instanceof HttpRoute.RepositoryControl;
    }

    /**
     * Answers a non-inference route.
     *
     * @param route the route, not {@link HttpRoute.Infer}
     * @param body  the request body (not released here)
     * @param alloc allocator for the response body
     * @return the response
     * @throws InferenceException for errors, with their category
     */
    public FullHttpResponse handle(final HttpRoute route, final ByteBuf body, final ByteBufAllocator alloc)
    {
        return switch (route)
        {
            case HttpRoute.Health health -> HttpResponses.empty(
                (health.live() ? core.isLive() : core.isReady()) ? HttpResponseStatus.OK
                    : HttpResponseStatus.BAD_REQUEST);
            case HttpRoute.ServerMetadata ignored ->
            {
                final ServerMetadata metadata = core.serverMetadata();
                yield json(alloc, out -> MetadataJson.serverMetadata(out, metadata.name(), metadata.version(),
                    ServerExtensions.SUPPORTED));
            }
            case HttpRoute.ModelMetadata model ->
            {
                final var metadata = core.modelMetadata(model.model(), model.version());
                yield json(alloc, out -> MetadataJson.modelMetadata(out, metadata));
            }
            case HttpRoute.ModelReady ready -> modelReady(ready, alloc);
            case HttpRoute.ModelConfig config ->
            {
                final String text = ModelConfigJson.toJson(core.modelConfig(config.model(), config.version()));
                final ByteBuf out = alloc.buffer(text.length() + 16);
                out.writeCharSequence(text, StandardCharsets.UTF_8);
                yield HttpResponses.json(HttpResponseStatus.OK, out);
            }
            case HttpRoute.Statistics stats ->
            {
                final var list = core.modelStatistics(stats.model(), stats.version());
                yield json(alloc, out -> StatisticsJson.write(out, list));
            }
            case HttpRoute.RepositoryIndex ignored ->
            {
                boolean readyOnly = false;
                if (body.isReadable())
                {
                    final JsonObject request = JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()),
                        "the repository index request");
                    final JsonElement ready = request.get("ready");
                    if (ready != null)
                    {
                        // Triton's text (http_server.cc HandleRepositoryIndex); null is not a boolean there either.
                        if (!ready.isJsonPrimitive() || !ready.getAsJsonPrimitive().isBoolean())
                        {
                            throw new InferenceException(ErrorCode.INVALID_ARG,
                                "Invalid value for 'ready': expected a boolean");
                        }
                        readyOnly = ready.getAsBoolean();
                    }
                }
                final var index = core.repositoryIndex(readyOnly);
                yield json(alloc, out -> MetadataJson.repositoryIndex(out, index));
            }
            case HttpRoute.RepositoryControl control -> repositoryControl(control, body);
            case HttpRoute.ShmStatus status ->
            {
                final var regions = sharedMemory.status(status.region());
                yield json(alloc, out -> MetadataJson.sharedMemoryStatus(out, regions));
            }
            case HttpRoute.ShmRegister register -> registerRegion(register.region(), body);
            case HttpRoute.ShmUnregister unregister ->
            {
                if (unregister.region() == null)
                {
                    sharedMemory.unregisterAll();
                }
                else
                {
                    sharedMemory.unregister(unregister.region());
                }
                yield HttpResponses.empty(HttpResponseStatus.OK);
            }
            case HttpRoute.CudaShm cuda -> cudaSharedMemory(cuda, alloc);
            case HttpRoute.Logging logging -> HttpLoggingEndpoint.handle(logging, body, alloc);
            case HttpRoute.TraceSetting trace -> HttpResponses.json(HttpResponseStatus.OK, alloc.buffer().writeBytes(
                traceSettings.http(trace.model(), trace.update(), body.toString(StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8)));
            case HttpRoute.Unsupported unsupported ->
                throw new InferenceException(ErrorCode.UNSUPPORTED, unsupported.message());
            case HttpRoute.NotFound ignored -> HttpResponses.error(alloc, HttpResponseStatus.NOT_FOUND, "Not Found");
            case HttpRoute.MethodNotAllowed ignored -> HttpResponses.error(alloc,
                HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed");
            case HttpRoute.Infer ignored -> throw new IllegalArgumentException("inference is not a control route");
            case HttpRoute.Generate ignored -> throw new IllegalArgumentException("generate is not a control route");
        };
    }

    private FullHttpResponse modelReady(final HttpRoute.ModelReady ready, final ByteBufAllocator alloc)
    {
        if (core.isModelReady(ready.model(), ready.version()))
        {
            return HttpResponses.empty(HttpResponseStatus.OK);
        }
        // Unknown models and versions get their own error; a known model that is not ready gets Triton's.
        try
        {
            core.modelMetadata(ready.model(), ready.version());
        }
        catch (final InferenceException notServing)
        {
            if (notServing.code() != ErrorCode.UNAVAILABLE)
            {
                throw notServing;
            }
        }
        return HttpResponses.error(alloc, HttpResponseStatus.BAD_REQUEST, "Model version not ready");
    }

    private FullHttpResponse repositoryControl(final HttpRoute.RepositoryControl control, final ByteBuf body)
    {
        final JsonObject parameters = controlParameters(control, body);
        if (control.load())
        {
            core.loadModel(control.model(), loadOverrides(control.model(), parameters));
        }
        else
        {
            final JsonElement dependents = parameters == null ? null : parameters.get("unload_dependents");
            core.unloadModel(control.model(), dependents != null
                && JsonBodies.bool(dependents, "unload_dependents", "the unload request of model '"
                    + control.model() + "'"));
        }
        return HttpResponses.empty(HttpResponseStatus.OK);
    }

    /** @return the request's {@code parameters} object, or {@code null} when the body or the member is absent */
    private static JsonObject controlParameters(final HttpRoute.RepositoryControl control, final ByteBuf body)
    {
        if (!body.isReadable())
        {
            return null;
        }
        final String context = "the " + (control.load() ? "load" : "unload") + " request of model '"
            + control.model() + "'";
        final JsonObject request = JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()), context);
        return JsonBodies.optionalObject(request, "parameters", context);
    }

    /**
     * Triton's load parameters: {@code config} (a JSON string) and {@code file:<path>} (base64 content); any other
     * name is refused as Triton's HTTP frontend refuses it.
     */
    private static ModelLoadOverrides loadOverrides(final String model, final JsonObject parameters)
    {
        if (parameters == null)
        {
            return ModelLoadOverrides.NONE;
        }
        String config = null;
        final Map<String, byte[]> files = new LinkedHashMap<>();
        for (final Map.Entry<String, JsonElement> parameter : parameters.entrySet())
        {
            final String name = parameter.getKey();
            final JsonElement value = parameter.getValue();
            if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString())
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "load parameter '" + name + "' of model '"
                    + model + "' must be a JSON string, got " + JsonBodies.describe(value));
            }
            if (name.equals("config"))
            {
                config = value.getAsString();
            }
            else if (name.startsWith(FILE_PREFIX))
            {
                files.put(name.substring(FILE_PREFIX.length()), decodeBase64(model, name, value.getAsString()));
            }
            else
            {
                throw new InferenceException(ErrorCode.INTERNAL, "unexpected error on creating Triton parameter: "
                    + "unrecognized load parameter '" + name + "' of model '" + model + "' (a load request takes "
                    + "'config' and 'file:<path>')");
            }
        }
        return new ModelLoadOverrides(config, files);
    }

    private static byte[] decodeBase64(final String model, final String parameter, final String text)
    {
        try
        {
            return Base64.getDecoder().decode(text);
        }
        catch (final IllegalArgumentException e)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "load parameter '" + parameter + "' of model '"
                + model + "' must hold base64 content: " + e.getMessage());
        }
    }

    private FullHttpResponse registerRegion(final String region, final ByteBuf body)
    {
        sharedMemory.requireClientShm();
        final String context = "the register request of region '" + region + "'";
        final JsonObject request = JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()), context);
        final String key = JsonBodies.requiredString(request, "key", context);
        final JsonElement offset = request.get("offset");
        final long byteSize = JsonBodies.unsigned64(request.get("byte_size"), "byte_size", context);
        sharedMemory.register(region, key, offset == null ? 0 : JsonBodies.unsigned64(offset, "offset", context),
            byteSize);
        return HttpResponses.empty(HttpResponseStatus.OK);
    }

    private FullHttpResponse cudaSharedMemory(final HttpRoute.CudaShm cuda, final ByteBufAllocator alloc)
    {
        if (!cuda.action().equals("status"))
        {
            sharedMemory.requireClientShm();
        }
        return switch (cuda.action())
        {
            case "status" ->
            {
                if (cuda.region() != null)
                {
                    throw new InferenceException(ErrorCode.NOT_FOUND, "Unable to find cuda shared memory region: '"
                        + cuda.region() + "'");
                }
                yield json(alloc, out -> out.beginArray().endArray());
            }
            case "unregister" -> HttpResponses.empty(HttpResponseStatus.OK);
            default -> throw new InferenceException(ErrorCode.UNSUPPORTED, "CUDA shared memory is not supported by "
                + "this server: register region '" + cuda.region() + "' as system shared memory instead");
        };
    }

    private static FullHttpResponse json(final ByteBufAllocator alloc, final Consumer<JsonOutput> writer)
    {
        final ByteBuf out = alloc.buffer(256);
        try
        {
            writer.accept(new JsonOutput(out));
        }
        catch (final RuntimeException failure)
        {
            out.release();
            throw failure;
        }
        return HttpResponses.json(HttpResponseStatus.OK, out);
    }
}
