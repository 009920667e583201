package io.ingot.client.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ingot.client.ClientOptions;
import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;
import io.ingot.client.InferResult;
import io.ingot.client.InferenceClient;
import io.ingot.client.InferenceServerException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * A KServe v2 client over HTTP/REST for Ingot and Triton, with the methods and semantics of Triton's
 * {@code tritonclient.http.InferenceServerClient}: health, metadata, configuration, the model repository, statistics,
 * the system shared-memory extension, and inference with JSON or binary tensors ({@code binary_tensor_data}),
 * synchronously ({@link #infer}) or asynchronously ({@link #inferAsync}: a future completed on the HTTP client's
 * thread, no thread blocked while the request is in flight). Built on {@link java.net.http.HttpClient} (HTTP/1.1,
 * persistent connections) and Gson. Errors are {@link InferenceServerException}s: the server's {@code error} with the
 * HTTP status, or the transport's failure in the C++ client's words ("HTTP client failed: Couldn't connect to
 * server"). Metadata calls return the server's JSON as Triton's Python client returns its dicts.
 *
 * <p>Thread-safe: one client serves any number of threads. {@link #close()} waits for calls in flight.
 */
public final class HttpInferenceServerClient implements InferenceClient
{
    private static final String HEADER_LENGTH = "Inference-Header-Content-Length";

    private final HttpClient http;
    private final String base;
    private final ClientOptions options;
    private final LimitedBody body;

    /**
     * @param url {@code host:port} (optionally with a path prefix), without a scheme, as Triton's client takes it
     */
    public HttpInferenceServerClient(final String url)
    {
        this(url, false, ClientOptions.DEFAULTS);
    }

    /**
     * @param url     {@code host:port} (optionally with a path prefix), without a scheme
     * @param ssl     true for https
     * @param options timeouts and the response limit
     * @throws InferenceServerException "url should not include the scheme" (Triton's text)
     */
    public HttpInferenceServerClient(final String url, final boolean ssl, final ClientOptions options)
    {
        if (url.startsWith("http://") || url.startsWith("https://"))
        {
            throw new InferenceServerException("url should not include the scheme");
        }
        this.base = (ssl ? "https://" : "http://") + url.replaceAll("/+$", "");
        this.options = options;
        this.body = new LimitedBody(options.maxResponseBytes());
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.connectionTimeout()).build();
    }

    /** @return whether the server answers its liveness endpoint with 200 */
    @Override
    public boolean isServerLive()
    {
        return send(get("v2/health/live", Map.of())).statusCode() == 200;
    }

    /** @return whether the server answers its readiness endpoint with 200 */
    @Override
    public boolean isServerReady()
    {
        return send(get("v2/health/ready", Map.of())).statusCode() == 200;
    }

    /** @return whether the model (any version, "" , or the one given) is ready */
    @Override
    public boolean isModelReady(final String model, final String version)
    {
        return send(get(modelPath(model, version) + "/ready", Map.of())).statusCode() == 200;
    }

    /** @return the server's metadata: name, version, extensions */
    public JsonObject serverMetadata()
    {
        return json(send(get("v2", Map.of())));
    }

    /** @return the model's metadata: name, versions, platform, inputs, outputs */
    public JsonObject modelMetadata(final String model, final String version)
    {
        return json(send(get(modelPath(model, version), Map.of())));
    }

    /** @return the model's configuration as Triton's JSON */
    public JsonObject modelConfig(final String model, final String version)
    {
        return json(send(get(modelPath(model, version) + "/config", Map.of())));
    }

    /** @return the repository's models, with state and reason ({@code {"models": [...]}}) */
    public JsonObject modelRepositoryIndex()
    {
        final HttpResponse<byte[]> response = send(post("v2/repository/index", "{}", Map.of()));
        raiseIfError(response);
        return HttpInferResults.parse("{\"models\":" + new String(response.body(), StandardCharsets.UTF_8) + "}");
    }

    /**
     * Loads (or reloads) a model (model control mode EXPLICIT).
     *
     * @param model  the model's name
     * @param config a configuration in JSON to load it with, or null for the repository's
     */
    @Override
    public void loadModel(final String model, final String config)
    {
        final JsonObject request = new JsonObject();
        if (config != null)
        {
            final JsonObject parameters = new JsonObject();
            parameters.addProperty("config", config);
            request.add("parameters", parameters);
        }
        raiseIfError(send(post("v2/repository/models/" + encode(model) + "/load", request.toString(), Map.of())));
    }

    /**
     * @param model            the model's name
     * @param unloadDependents whether the models of an ensemble are unloaded with it
     */
    @Override
    public void unloadModel(final String model, final boolean unloadDependents)
    {
        final JsonObject request = new JsonObject();
        final JsonObject parameters = new JsonObject();
        parameters.addProperty("unload_dependents", unloadDependents);
        request.add("parameters", parameters);
        raiseIfError(send(post("v2/repository/models/" + encode(model) + "/unload", request.toString(), Map.of())));
    }

    /** @return the statistics of a model (null or "": of every model), {@code {"model_stats": [...]}} */
    public JsonObject inferenceStatistics(final String model, final String version)
    {
        final String path = model == null || model.isEmpty() ? "v2/models/stats" : modelPath(model, version) + "/stats";
        return json(send(get(path, Map.of())));
    }

    /** @return the registered system shared-memory regions (of the one named, unless null), as Triton's JSON list */
    public JsonObject systemSharedMemoryStatus(final String region)
    {
        final String path = region == null || region.isEmpty() ? "v2/systemsharedmemory/status"
            : "v2/systemsharedmemory/region/" + encode(region) + "/status";
        final HttpResponse<byte[]> response = send(get(path, Map.of()));
        raiseIfError(response);
        return HttpInferResults.parse("{\"regions\":" + new String(response.body(), StandardCharsets.UTF_8) + "}");
    }

    /**
     * Registers a POSIX shared-memory object with the server (Triton's {@code register_system_shared_memory}).
     *
     * @param name     the name requests will use for it
     * @param key      the object's key ({@code /name}, as {@code shm_open} takes it)
     * @param byteSize the registered part's size
     * @param offset   where the registered part starts in the object
     */
    @Override
    public void registerSystemSharedMemory(final String name, final String key, final long byteSize, final long offset)
    {
        final JsonObject request = new JsonObject();
        request.addProperty("key", key);
        request.addProperty("offset", offset);
        request.addProperty("byte_size", byteSize);
        raiseIfError(send(post("v2/systemsharedmemory/region/" + encode(name) + "/register", request.toString(),
            Map.of())));
    }

    /** Unregisters a region, or every region when {@code name} is null or "". */
    @Override
    public void unregisterSystemSharedMemory(final String name)
    {
        final String path = name == null || name.isEmpty() ? "v2/systemsharedmemory/unregister"
            : "v2/systemsharedmemory/region/" + encode(name) + "/unregister";
        raiseIfError(send(post(path, "", Map.of())));
    }

    /**
     * Runs one inference and waits for its result.
     *
     * @param model   the model's name
     * @param inputs  its inputs
     * @param outputs the outputs to return (empty: every output, binary)
     * @param options version, id, sequence, priority, timeouts, parameters, headers
     * @return the result
     * @throws InferenceServerException the server's error with its status, or the transport's
     */
    @Override
    public InferResult infer(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        return result(send(inferRequest(model, inputs, outputs, options)), outputs);
    }

    /**
     * Starts one inference; the future completes with its result, or exceptionally with an
     * {@link InferenceServerException}, on the HTTP client's thread. Nothing blocks while the request is in flight.
     *
     * @param model   the model's name
     * @param inputs  its inputs (read before this returns: they may be reused at once)
     * @param outputs the outputs to return
     * @param options the request's options
     * @return the result to come
     */
    @Override
    public CompletableFuture<InferResult> inferAsync(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        final HttpRequest request;
        try
        {
            request = inferRequest(model, inputs, outputs, options);
        }
        catch (final InferenceServerException invalid)
        {
            return CompletableFuture.failedFuture(invalid);
        }
        return http.sendAsync(request, body).handle((response, failure) ->
        {
            if (failure != null)
            {
                throw transportError(request, failure instanceof CompletionException ? failure.getCause() : failure);
            }
            return result(response, outputs);
        });
    }

    /** Waits for the calls in flight, then releases the connections. */
    @Override
    public void close()
    {
        http.close();
    }

    private HttpRequest inferRequest(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        final HttpInferBody inferBody = HttpInferBody.of(inputs, outputs, options);
        final HttpRequest.Builder request = HttpRequest.newBuilder(uri(modelPath(model, options.modelVersion())
            + "/infer")).POST(HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofByteArrays(inferBody.parts()), inferBody.length()));
        if (inferBody.jsonSize() >= 0)
        {
            request.header(HEADER_LENGTH, Integer.toString(inferBody.jsonSize()));
        }
        options.headers().forEach(request::header);
        final Duration timeout = options.clientTimeout() != null ? options.clientTimeout()
            : this.options.networkTimeout();
        if (timeout != null)
        {
            request.timeout(timeout);
        }
        return request.build();
    }

    private InferResult result(final HttpResponse<byte[]> response, final List<InferRequestedOutput> outputs)
    {
        raiseIfError(response);
        final byte[] content = decompress(response);
        final int headerLength = (int)response.headers().firstValueAsLong(HEADER_LENGTH).orElse(-1);
        return HttpInferResults.read(content, headerLength, InferRequestedOutput.sharedMemoryRegions(outputs));
    }

    private HttpRequest get(final String path, final Map<String, String> headers)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
        headers.forEach(request::header);
        timeout(request);
        return request.build();
    }

    private HttpRequest post(final String path, final String json, final Map<String, String> headers)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        headers.forEach(request::header);
        timeout(request);
        return request.build();
    }

    private void timeout(final HttpRequest.Builder request)
    {
        if (options.networkTimeout() != null)
        {
            request.timeout(options.networkTimeout());
        }
    }

    private HttpResponse<byte[]> send(final HttpRequest request)
    {
        try
        {
            return http.send(request, body);
        }
        catch (final IOException failure)
        {
            throw transportError(request, failure);
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
            throw new InferenceServerException("interrupted while waiting for " + request.uri());
        }
    }

    /** The C++ client's words for curl's failures, with Java's reason after them. */
    private static InferenceServerException transportError(final HttpRequest request, final Throwable failure)
    {
        if (failure instanceof InferenceServerException known)
        {
            return known;
        }
        final Throwable cause = failure instanceof IOException && failure.getCause() instanceof LimitedBody
            .TooLargeException tooLarge ? tooLarge : failure;
        if (cause instanceof LimitedBody.TooLargeException tooLarge)
        {
            return new InferenceServerException("HTTP client failed: " + tooLarge.getMessage() + " (" + request.method()
                + " " + request.uri() + ")", null, null, tooLarge);
        }
        if (cause instanceof HttpTimeoutException)
        {
            return new InferenceServerException("HTTP client failed (Deadline Exceeded): Timeout was reached ("
                + request.method() + " " + request.uri() + ")", null, null, cause);
        }
        if (cause instanceof ConnectException)
        {
            return new InferenceServerException("HTTP client failed: Couldn't connect to server (" + request.uri()
                + ": " + (cause.getMessage() != null ? cause.getMessage() : "connection refused") + ")", null, null,
                cause);
        }
        return new InferenceServerException("HTTP client failed: " + cause + " (" + request.method() + " "
            + request.uri() + ")", null, null, cause);
    }

    /** Triton's {@code _get_error}: a non-200 answer carries {@code {"error": "..."}}. */
    private static void raiseIfError(final HttpResponse<byte[]> response)
    {
        if (response.statusCode() == 200)
        {
            return;
        }
        final String status = Integer.toString(response.statusCode());
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        if (text.isEmpty())
        {
            throw new InferenceServerException("client received an empty response from the server.", status, null,
                null);
        }
        String reason;
        try
        {
            final JsonElement error = JsonParser.parseString(text).getAsJsonObject().get("error");
            if (error != null && error.isJsonPrimitive())
            {
                throw new InferenceServerException(error.getAsString(), status, null, null);
            }
            reason = "no 'error' string in it";
        }
        catch (final JsonParseException | IllegalStateException undecodable)
        {
            reason = undecodable.getMessage();
        }
        throw new InferenceServerException("an exception occurred in the client while decoding the response: " + reason
            + "\nresponse: " + HttpInferResults.abbreviate(text), status, text, null);
    }

    private static JsonObject json(final HttpResponse<byte[]> response)
    {
        raiseIfError(response);
        return HttpInferResults.parse(new String(response.body(), StandardCharsets.UTF_8));
    }

    private byte[] decompress(final HttpResponse<byte[]> response)
    {
        final String coding = response.headers().firstValue("content-encoding").orElse("");
        if (coding.isEmpty() || coding.equalsIgnoreCase("identity"))
        {
            return response.body();
        }
        try (InputStream in = coding.equalsIgnoreCase("gzip")
            ? new GZIPInputStream(new ByteArrayInputStream(response.body()))
            : new InflaterInputStream(new ByteArrayInputStream(response.body())))
        {
            final byte[] inflated = in.readNBytes(options.maxResponseBytes());
            if (in.read() >= 0)
            {
                throw new InferenceServerException("HTTP client failed: the decompressed response exceeds this "
                    + "client's limit of " + options.maxResponseBytes() + " bytes (ClientOptions.maxResponseBytes)");
            }
            return inflated;
        }
        catch (final IOException corrupt)
        {
            throw new InferenceServerException("HTTP client failed: cannot decompress the " + coding + " response: "
                + corrupt.getMessage(), Integer.toString(response.statusCode()), null, corrupt);
        }
    }

    private URI uri(final String path)
    {
        return URI.create(base + "/" + path);
    }

    private static String modelPath(final String model, final String version)
    {
        return "v2/models/" + encode(model) + (version == null || version.isEmpty() ? "" : "/versions/"
            + encode(version));
    }

    private static String encode(final String segment)
    {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
