package io.ingot.python;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.SharedMemory;
import io.ingot.metrics.CustomMetrics;
import io.ingot.metrics.Metric;
import io.ingot.metrics.MetricFamily;
import io.ingot.metrics.MetricKind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The stub's CALL records: what {@code pb_utils} asks the server besides inference. Custom metrics
 * ({@code MetricFamily}, {@code Metric}: the core's {@link CustomMetrics}, by handles that live as long as the Python
 * objects, all given back when the stub goes), model control ({@code load_model}, {@code unload_model},
 * {@code is_model_ready}: the core's own calls, with Triton's messages) and {@code request.is_cancelled()}. Errors come
 * back in the reply with the core's text; the stub puts Triton's prefix in front ({@code Error when creating
 * MetricFamily: ...}).
 *
 * <p>Threads: the role holder handles every call; a load or unload runs on {@code control} (it waits for other
 * models' threads, which must not wait for this stub), except while {@code initialize} runs (the loading thread
 * then holds the core's load lock, which a thread of its own would wait for) and posts its reply.
 */
final class StubCalls
{
    private final String model;
    private final InferenceCore core;
    private final CustomMetrics metrics;
    private final OpenRequests requests;
    private final Replies replies;
    private final Executor control;
    private final Map<Long, MetricFamily> families = new HashMap<>();
    private final Map<Long, Metric> metricHandles = new HashMap<>();
    private long nextHandle = 1;
    private boolean initializing;

    /**
     * @param model    the calling model
     * @param core     the core, or {@code null} for a model loaded outside one
     * @param metrics  the core's custom metrics (a registry of its own without a core)
     * @param requests the stub's open requests
     * @param replies  where replies go
     * @param control  runs loads and unloads
     */
    StubCalls(final String model, final InferenceCore core, final CustomMetrics metrics, final OpenRequests requests,
        final Replies replies, final Executor control)
    {
        this.model = model;
        this.core = core;
        this.metrics = metrics;
        this.requests = requests;
        this.replies = replies;
        this.control = control;
    }

    /** @param running whether {@code initialize} runs now (model control then runs on the calling thread) */
    void initializing(final boolean running)
    {
        initializing = running;
    }

    /**
     * Handles one CALL record (role holder).
     *
     * @param buffer the record's memory
     * @param offset the body's offset
     * @param length the body's bytes
     */
    void onCall(final MemorySegment buffer, final long offset, final int length)
    {
        ResponseOutputs.need(offset, StubProtocol.CALL_HEADER_LENGTH, offset + length);
        final long callId = buffer.get(SharedMemory.LONG, offset);
        final int jsonLength = buffer.get(SharedMemory.INT, offset + 8);
        ResponseOutputs.need(offset + StubProtocol.CALL_HEADER_LENGTH, jsonLength, offset + length);
        final byte[] bytes = new byte[jsonLength];
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, offset + StubProtocol.CALL_HEADER_LENGTH, bytes, 0,
            jsonLength);
        final JsonObject call;
        try
        {
            call = JsonParser.parseString(new String(bytes, StandardCharsets.UTF_8)).getAsJsonObject();
        }
        catch (final RuntimeException ex)
        {
            throw new IpcRingCorruptException("a CALL whose body is not a JSON object: " + ex.getMessage());
        }
        final String op = call.get("op").getAsString();
        switch (op)
        {
            case "load_model", "unload_model" ->
            {
                if (initializing)
                {
                    replies.send(control(callId, op, call));
                }
                else
                {
                    control.execute(() -> replies.post(control(callId, op, call)));
                }
            }
            default -> replies.send(handle(callId, op, call));
        }
    }

    private Replies.Reply handle(final long callId, final String op, final JsonObject call)
    {
        try
        {
            return switch (op)
            {
                case "metric_family_new" -> newFamily(callId, call);
                case "metric_family_delete" -> release(callId, families, call, MetricFamily::release);
                case "metric_new" -> newMetric(callId, call);
                case "metric_delete" -> release(callId, metricHandles, call, Metric::release);
                case "metric_increment", "metric_set", "metric_observe", "metric_value" -> metricOperation(callId, op,
                    call);
                case "model_ready" -> Replies.Reply.ok(callId, modelReady(call) ? 1 : 0, 0);
                case "is_cancelled" -> Replies.Reply.ok(callId,
                    requests.isCancelled(call.get("handle").getAsLong()) ? 1 : 0, 0);
                default -> throw new IpcRingCorruptException("unknown CALL operation '" + op + "'");
            };
        }
        catch (final IllegalArgumentException | UnsupportedOperationException | InferenceException ex)
        {
            return Replies.Reply.error(callId, IpcStatus.INVALID_ARG, ex.getMessage());
        }
    }

    /** Gives back the hold behind a handle the Python object of which was deleted; an unknown handle is ignored. */
    private static <T> Replies.Reply release(final long callId, final Map<Long, T> handles, final JsonObject call,
        final Consumer<T> release)
    {
        final T held = handles.remove(call.get("handle").getAsLong());
        if (held != null)
        {
            release.accept(held);
        }
        return Replies.Reply.ok(callId, 0, 0);
    }

    private Replies.Reply newFamily(final long callId, final JsonObject call)
    {
        final MetricKind kind = switch (call.get("kind").getAsInt())
        {
            case 0 -> MetricKind.COUNTER;
            case 1 -> MetricKind.GAUGE;
            case 2 -> MetricKind.HISTOGRAM;
            default -> throw new IllegalArgumentException("Unknown metric kind");
        };
        final MetricFamily family = metrics.family(call.get("name").getAsString(),
            call.get("description").getAsString(), kind);
        final long handle = nextHandle++;
        families.put(handle, family);
        return Replies.Reply.ok(callId, 0, handle);
    }

    private Replies.Reply newMetric(final long callId, final JsonObject call)
    {
        final MetricFamily family = families.get(call.get("family").getAsLong());
        if (family == null)
        {
            throw new IllegalArgumentException("Invalid metric operation as the corresponding 'MetricFamily' has been "
                + "deleted.");
        }
        final Map<String, String> labels = new LinkedHashMap<>();
        final JsonElement given = call.get("labels");
        if (given != null && given.isJsonObject())
        {
            for (final Map.Entry<String, JsonElement> label : given.getAsJsonObject().entrySet())
            {
                final JsonElement value = label.getValue();
                if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString())
                {
                    // Triton parses the labels with TritonJson's MemberAsString, whose error this is.
                    throw new IllegalArgumentException("attempt to access JSON non-string as string (label '"
                        + label.getKey() + "' of metric family '" + family.name() + "' is " + value
                        + "; label values must be strings)");
                }
                labels.put(label.getKey(), value.getAsString());
            }
        }
        final JsonElement bucketList = call.get("buckets");
        double[] buckets = null;
        if (bucketList != null && bucketList.isJsonArray())
        {
            buckets = new double[bucketList.getAsJsonArray().size()];
            for (int b = 0; b < buckets.length; b++)
            {
                buckets[b] = bucketList.getAsJsonArray().get(b).getAsDouble();
            }
        }
        final Metric metric = family.metric(labels, buckets);
        final long handle = nextHandle++;
        metricHandles.put(handle, metric);
        return Replies.Reply.ok(callId, 0, handle);
    }

    private Replies.Reply metricOperation(final long callId, final String op, final JsonObject call)
    {
        final Metric metric = metricHandles.get(call.get("handle").getAsLong());
        if (metric == null)
        {
            throw new IllegalArgumentException("Invalid metric operation as the corresponding 'MetricFamily' has been "
                + "deleted.");
        }
        final double value = call.has("value") ? call.get("value").getAsDouble() : 0;
        switch (op)
        {
            case "metric_increment" -> metric.increment(value);
            case "metric_set" -> metric.set(value);
            case "metric_observe" -> metric.observe(value);
            default ->
            {
                return Replies.Reply.ok(callId, metric.value(), 0);
            }
        }
        return Replies.Reply.ok(callId, 0, 0);
    }

    private boolean modelReady(final JsonObject call)
    {
        final String name = call.get("name").getAsString();
        final String version = call.get("version").getAsString();
        long number = -1;
        if (!version.isEmpty())
        {
            try
            {
                number = Long.parseLong(version);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("failed to get model version from specified version string '"
                    + version + "' (details: " + ex.getMessage() + "), version should be an integral value > 0");
            }
            if (number < 0)
            {
                throw new IllegalArgumentException("failed to get model version from specified version string '"
                    + version + "', version should be an integral value > 0");
            }
        }
        return core != null && core.isModelReady(name, number);
    }

    /** A load or an unload, with the core's error as the reply's. */
    private Replies.Reply control(final long callId, final String op, final JsonObject call)
    {
        final String name = call.get("name").getAsString();
        if (core == null)
        {
            return Replies.Reply.error(callId, IpcStatus.UNAVAILABLE, "python model '" + model + "' was loaded "
                + "outside a core: there is no server whose models it could load or unload");
        }
        try
        {
            if (op.equals("load_model"))
            {
                core.loadModel(name, overrides(name, call));
            }
            else
            {
                core.unloadModel(name, call.get("unload_dependents").getAsBoolean());
            }
            return Replies.Reply.ok(callId, 0, 0);
        }
        catch (final InferenceException ex)
        {
            return Replies.Reply.error(callId, BlsBridge.status(ex.code()), ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            return Replies.Reply.error(callId, IpcStatus.INTERNAL, String.valueOf(ex.getMessage()));
        }
    }

    private static ModelLoadOverrides overrides(final String name, final JsonObject call)
    {
        final String config = call.has("config") && !call.get("config").getAsString().isEmpty()
            ? call.get("config").getAsString() : null;
        final Map<String, byte[]> files = new LinkedHashMap<>();
        if (call.has("files") && call.get("files").isJsonObject())
        {
            for (final Map.Entry<String, JsonElement> file : call.getAsJsonObject("files").entrySet())
            {
                final String key = file.getKey();
                if (!key.startsWith("file:"))
                {
                    throw new IllegalArgumentException("failed to load model '" + name + "': unrecognized load "
                        + "parameter '" + key + "'; a file of the model directory is named 'file:<path>'");
                }
                files.put(key.substring("file:".length()), Base64.getDecoder().decode(file.getValue().getAsString()));
            }
        }
        return config == null && files.isEmpty() ? ModelLoadOverrides.NONE : new ModelLoadOverrides(config, files);
    }

    /** The stub is gone: every family and metric it held is given back (the model's metrics leave /metrics). */
    void releaseAll()
    {
        metricHandles.values().forEach(Metric::release);
        metricHandles.clear();
        families.values().forEach(MetricFamily::release);
        families.clear();
    }
}
