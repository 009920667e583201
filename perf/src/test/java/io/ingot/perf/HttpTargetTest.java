package io.ingot.perf;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP client against a small fake KServe v2 server that checks the binary tensor framing. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpTargetTest
{
    private HttpServer server;
    private final AtomicReference<String> framingProblem = new AtomicReference<>();
    private final AtomicReference<byte[]> lastTensor = new AtomicReference<>();
    private volatile int inferStatus = 200;

    @BeforeEach
    void start() throws IOException
    {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v2/models/", this::handle);
        server.start();
    }

    @AfterEach
    void stop()
    {
        server.stop(0);
    }

    private String url()
    {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(final HttpExchange exchange) throws IOException
    {
        final String path = exchange.getRequestURI().getPath();
        final byte[] body = exchange.getRequestBody().readAllBytes();
        switch (path)
        {
            case "/v2/models/simple" -> reply(exchange, 200, """
                {"name":"simple","versions":["1"],"platform":"add_sub","inputs":[{"name":"INPUT0","datatype":"INT32",
                "shape":[-1,4]}],"outputs":[{"name":"OUTPUT0","datatype":"INT32","shape":[-1,4]}]}""");
            case "/v2/models/simple/config" -> reply(exchange, 200, "{\"name\":\"simple\",\"max_batch_size\":8}");
            case "/v2/models/simple/stats" -> reply(exchange, 200, """
                {"model_stats":[{"name":"simple","version":"1","inference_count":12,"execution_count":4,
                "inference_stats":{"success":{"count":10,"ns":5000},"queue":{"count":10,"ns":1000},
                "compute_input":{"count":10,"ns":100},"compute_infer":{"count":10,"ns":3000},
                "compute_output":{"count":10,"ns":200}}}]}""");
            case "/v2/models/simple/infer" ->
            {
                checkFraming(exchange, body);
                reply(exchange, inferStatus, inferStatus == 200 ? "{\"model_name\":\"simple\",\"outputs\":[]}"
                    : "{\"error\":\"Request for unknown model: 'simple' has no available versions\"}");
            }
            default -> reply(exchange, 400, "{\"error\":\"Request for unknown model: '" + path.substring(11)
                + "' is not found\"}");
        }
    }

    private void checkFraming(final HttpExchange exchange, final byte[] body)
    {
        final String header = exchange.getRequestHeaders().getFirst("Inference-Header-Content-Length");
        if (header == null)
        {
            framingProblem.set("no Inference-Header-Content-Length");
            return;
        }
        final int jsonLength = Integer.parseInt(header);
        final JsonObject json = JsonParser.parseString(new String(body, 0, jsonLength, StandardCharsets.UTF_8))
            .getAsJsonObject();
        final JsonObject input = json.getAsJsonArray("inputs").get(0).getAsJsonObject();
        final int size = input.getAsJsonObject("parameters").get("binary_data_size").getAsInt();
        final JsonArray outputs = json.getAsJsonArray("outputs");
        if (!"INPUT0".equals(input.get("name").getAsString()) || !"INT32".equals(input.get("datatype").getAsString())
            || !"[2,4]".equals(input.get("shape").toString()) || body.length != jsonLength + size
            || !outputs.get(0).getAsJsonObject().getAsJsonObject("parameters").get("binary_data").getAsBoolean())
        {
            framingProblem.set("unexpected request: " + json + " with " + (body.length - jsonLength) + " bytes");
        }
        lastTensor.set(Arrays.copyOfRange(body, jsonLength, body.length));
    }

    private static void reply(final HttpExchange exchange, final int status, final String text) throws IOException
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private RequestInputs prepare(final HttpTarget target)
    {
        final LoadTarget.ModelInfo info = target.modelInfo();
        final RequestInputs inputs = RequestInputs.resolve("simple", "", info.maxBatchSize(), info.inputs(),
            info.outputs(), 2, Map.of(), Map.of("INPUT0", "7"), 1);
        target.prepare(inputs);
        return inputs;
    }

    @Test
    void readsTheModelFromMetadataAndConfig()
    {
        try (HttpTarget target = new HttpTarget(url(), "simple", ""))
        {
            final LoadTarget.ModelInfo info = target.modelInfo();
            assertEquals(8, info.maxBatchSize());
            assertEquals(DataType.INT32, info.inputs().get(0).dataType());
            assertEquals(List.of(-1L, 4L), info.inputs().get(0).shape());
            assertEquals(List.of("OUTPUT0"), info.outputs());
        }
    }

    @Test
    void sendsTheTensorAsBinaryDataAfterTheJsonHeader() throws Exception
    {
        try (HttpTarget target = new HttpTarget("http://" + url(), "simple", ""))
        {
            final RequestInputs inputs = prepare(target);
            assertNull(target.newClient().call());
            assertNull(framingProblem.get(), framingProblem.get());
            assertArrayEquals(inputs.inputs().get(0).data(), lastTensor.get());
            final CompletableFuture<String> async = new CompletableFuture<>();
            target.newClient().send(async::complete);
            assertNull(async.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void failedInferenceReportsTheServersError() throws Exception
    {
        inferStatus = 400;
        try (HttpTarget target = new HttpTarget(url(), "simple", ""))
        {
            prepare(target);
            final String error = target.newClient().call();
            assertTrue(error.startsWith("HTTP 400") && error.contains("has no available versions"), error);
        }
    }

    @Test
    void countersComeFromTheStatisticsEndpoint()
    {
        try (HttpTarget target = new HttpTarget(url(), "simple", ""))
        {
            final ServerCounters counters = target.counters();
            assertEquals(3.0, counters.averageBatchSize(), 1e-9);
            assertEquals(0.1, counters.perRequestMicros(counters.queueNs()), 1e-9);
        }
    }

    @Test
    void unknownModelIsAFailureWithTheServersMessage()
    {
        try (HttpTarget target = new HttpTarget(url(), "nope", ""))
        {
            final PerfException error = assertThrows(PerfException.class, target::modelInfo);
            assertEquals(PerfException.FAILURE, error.exitCode());
            assertTrue(error.getMessage().contains("'nope' is not found"), error.getMessage());
        }
    }

    @Test
    void malformedUrlOrVersionIsAUsageError()
    {
        assertEquals(PerfException.USAGE, assertThrows(PerfException.class,
            () -> new HttpTarget("https://host:1", "m", "")).exitCode());
        assertEquals(PerfException.USAGE, assertThrows(PerfException.class,
            () -> new HttpTarget("host", "m", "")).exitCode());
        assertEquals(PerfException.USAGE, assertThrows(PerfException.class,
            () -> new HttpTarget("host:1", "m", "v1")).exitCode());
    }
}
