package io.ingot.perf;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * A KServe v2 server over HTTP/1.1, with the JDK's {@link HttpClient} and Triton's binary tensor data extension:
 * the body is the JSON header followed by the raw input bytes, {@code Inference-Header-Content-Length} says where
 * the JSON ends, and every output is asked for as binary — as perf_analyzer sends by default. The body is built once
 * and every request reuses it. Statistics come from {@code GET /v2/models/{m}/stats}.
 */
public final class HttpTarget implements LoadTarget
{
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final String base;
    private final String model;
    private final String modelPath;
    private HttpRequest infer;

    /**
     * @param url     {@code host:port} or {@code http://host:port}
     * @param model   the model
     * @param version its version, {@code ""} for the server's choice
     * @throws PerfException (usage) for a malformed URL or version
     */
    public HttpTarget(final String url, final String model, final String version)
    {
        this.base = baseUrl(url);
        this.model = model;
        if (!version.isEmpty() && !version.chars().allMatch(Character::isDigit))
        {
            throw PerfException.usage("-x/--model-version must be a whole number, got '" + version + "'");
        }
        this.modelPath = base + "/v2/models/" + URLEncoder.encode(model, StandardCharsets.UTF_8).replace("+", "%20")
            + (version.isEmpty() ? "" : "/versions/" + version);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
            .build();
    }

    private static String baseUrl(final String url)
    {
        final String withScheme = url.contains("://") ? url : "http://" + url;
        try
        {
            final URI uri = URI.create(withScheme);
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0
                || !(uri.getPath() == null || uri.getPath().isEmpty() || "/".equals(uri.getPath())))
            {
                throw new IllegalArgumentException(url);
            }
            return "http://" + uri.getHost() + ":" + uri.getPort();
        }
        catch (final IllegalArgumentException ex)
        {
            throw PerfException.usage("-u/--url expects host:port (or http://host:port), e.g. localhost:8000; got '"
                + url + "'");
        }
    }

    @Override
    public String describe()
    {
        return "HTTP " + base;
    }

    @Override
    public ModelInfo modelInfo()
    {
        final JsonObject metadata = getJson(modelPath, "metadata of model '" + model + "'");
        final JsonObject config = getJson(modelPath + "/config", "configuration of model '" + model + "'");
        final JsonObject body = config.has("config") && config.get("config").isJsonObject()
            ? config.getAsJsonObject("config") : config;
        final int maxBatchSize = body.has("max_batch_size") ? body.get("max_batch_size").getAsInt() : 0;
        return new ModelInfo(maxBatchSize, tensors(metadata.getAsJsonArray("inputs")),
            tensors(metadata.getAsJsonArray("outputs")).stream().map(TensorMetadata::name).toList());
    }

    private List<TensorMetadata> tensors(final JsonArray array)
    {
        final List<TensorMetadata> tensors = new ArrayList<>();
        if (array == null)
        {
            return tensors;
        }
        for (final JsonElement element : array)
        {
            final JsonObject tensor = element.getAsJsonObject();
            final List<Long> shape = new ArrayList<>();
            for (final JsonElement dim : tensor.getAsJsonArray("shape"))
            {
                shape.add(dim.getAsLong());
            }
            final String type = tensor.get("datatype").getAsString();
            final DataType dataType;
            try
            {
                dataType = DataType.fromWireName(type);
            }
            catch (final IllegalArgumentException ex)
            {
                throw PerfException.failure("model '" + model + "' at " + base + " reports tensor '"
                    + tensor.get("name").getAsString() + "' of unknown datatype '" + type + "'");
            }
            tensors.add(new TensorMetadata(tensor.get("name").getAsString(), dataType, shape));
        }
        return tensors;
    }

    @Override
    public void prepare(final RequestInputs inputs)
    {
        final JsonObject header = new JsonObject();
        final JsonArray inputArray = new JsonArray();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (final RequestInputs.Tensor tensor : inputs.inputs())
        {
            final JsonObject input = new JsonObject();
            input.addProperty("name", tensor.name());
            final JsonArray shape = new JsonArray();
            for (final long dim : tensor.shape())
            {
                shape.add(dim);
            }
            input.add("shape", shape);
            input.addProperty("datatype", tensor.dataType().wireName());
            final JsonObject parameters = new JsonObject();
            parameters.addProperty("binary_data_size", tensor.data().length);
            input.add("parameters", parameters);
            inputArray.add(input);
        }
        header.add("inputs", inputArray);
        final JsonArray outputs = new JsonArray();
        for (final String name : inputs.outputs())
        {
            final JsonObject output = new JsonObject();
            output.addProperty("name", name);
            final JsonObject parameters = new JsonObject();
            parameters.addProperty("binary_data", true);
            output.add("parameters", parameters);
            outputs.add(output);
        }
        header.add("outputs", outputs);
        final byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
        body.writeBytes(json);
        for (final RequestInputs.Tensor tensor : inputs.inputs())
        {
            body.writeBytes(tensor.data());
        }
        infer = HttpRequest.newBuilder(URI.create(modelPath + "/infer"))
            .header("Content-Type", "application/octet-stream")
            .header("Inference-Header-Content-Length", Integer.toString(json.length))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
            .build();
    }

    @Override
    public LoadClient newClient()
    {
        if (infer == null)
        {
            throw new IllegalStateException("prepare() must be called before clients are made");
        }
        return new Client();
    }

    @Override
    public ServerCounters counters()
    {
        final JsonObject stats = getJson(modelPath + "/stats", "statistics of model '" + model + "'");
        long inferences = 0;
        long executions = 0;
        long successes = 0;
        long requestNs = 0;
        long queueNs = 0;
        long inputNs = 0;
        long inferNs = 0;
        long outputNs = 0;
        final JsonArray models = stats.getAsJsonArray("model_stats");
        if (models == null)
        {
            return null;
        }
        for (final JsonElement element : models)
        {
            final JsonObject entry = element.getAsJsonObject();
            inferences += entry.get("inference_count").getAsLong();
            executions += entry.get("execution_count").getAsLong();
            final JsonObject inference = entry.getAsJsonObject("inference_stats");
            successes += count(inference, "success");
            requestNs += ns(inference, "success");
            queueNs += ns(inference, "queue");
            inputNs += ns(inference, "compute_input");
            inferNs += ns(inference, "compute_infer");
            outputNs += ns(inference, "compute_output");
        }
        return new ServerCounters(inferences, executions, successes, requestNs, queueNs, inputNs, inferNs, outputNs);
    }

    private static long count(final JsonObject stats, final String key)
    {
        return stats == null || !stats.has(key) ? 0 : stats.getAsJsonObject(key).get("count").getAsLong();
    }

    private static long ns(final JsonObject stats, final String key)
    {
        return stats == null || !stats.has(key) ? 0 : stats.getAsJsonObject(key).get("ns").getAsLong();
    }

    private JsonObject getJson(final String url, final String what)
    {
        final HttpResponse<String> response;
        try
        {
            response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(CONTROL_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        }
        catch (final IOException ex)
        {
            throw PerfException.failure(unreachable(ex), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw PerfException.failure("interrupted while reading the " + what + " from " + base);
        }
        if (response.statusCode() != 200)
        {
            throw PerfException.failure("cannot read the " + what + " from " + base + ": HTTP "
                + response.statusCode() + " " + errorText(response.body()));
        }
        try
        {
            return JsonParser.parseString(response.body()).getAsJsonObject();
        }
        catch (final JsonParseException | IllegalStateException ex)
        {
            throw PerfException.failure("the " + what + " from " + base + " is not a JSON object: "
                + abbreviate(response.body()));
        }
    }

    private String unreachable(final Throwable cause)
    {
        final Throwable root = cause instanceof CompletionException && cause.getCause() != null ? cause.getCause()
            : cause;
        if (root instanceof ConnectException || root instanceof HttpConnectTimeoutException)
        {
            final String why = root instanceof ConnectException && root.getMessage() == null ? "connection refused"
                : describe(root);
            return "cannot reach the HTTP endpoint " + base + " (" + why + "): is a server listening there"
                + " (ingot serve --http-port ...)?";
        }
        if (root instanceof HttpTimeoutException)
        {
            return "the HTTP endpoint " + base + " did not answer in time (" + describe(root) + ")";
        }
        return "HTTP request to " + base + " failed: " + describe(root);
    }

    private static String describe(final Throwable failure)
    {
        return failure.getMessage() == null || failure.getMessage().isBlank() ? failure.getClass().getSimpleName()
            : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    private static String errorText(final String body)
    {
        try
        {
            final JsonElement json = JsonParser.parseString(body);
            if (json.isJsonObject() && json.getAsJsonObject().has("error"))
            {
                return json.getAsJsonObject().get("error").getAsString();
            }
        }
        catch (final JsonParseException | IllegalStateException | UnsupportedOperationException ex)
        {
            // Not Triton's error JSON: show the body itself.
        }
        return abbreviate(body);
    }

    private static String abbreviate(final String text)
    {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    private String outcome(final HttpResponse<byte[]> response)
    {
        if (response.statusCode() == 200)
        {
            return null;
        }
        return "HTTP " + response.statusCode() + " " + errorText(new String(response.body(), StandardCharsets.UTF_8));
    }

    @Override
    public void close()
    {
        http.close();
    }

    /** One client: the shared, immutable request, sent synchronously or asynchronously. */
    private final class Client implements LoadClient
    {
        @Override
        public String call() throws InterruptedException
        {
            try
            {
                return outcome(http.send(infer, HttpResponse.BodyHandlers.ofByteArray()));
            }
            catch (final IOException ex)
            {
                return unreachable(ex);
            }
        }

        @Override
        public void send(final Sink sink)
        {
            http.sendAsync(infer, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) ->
                sink.completed(failure != null ? unreachable(failure) : outcome(response)));
        }
    }
}
