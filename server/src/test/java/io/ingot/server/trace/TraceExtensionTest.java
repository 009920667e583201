package io.ingot.server.trace;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ingot.api.InferenceException;
import io.ingot.protocol.grpc.InferTensorContents;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.TraceSettingRequest;
import io.ingot.protocol.grpc.TraceSettingResponse;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's trace extension over a real server: settings global and per model with Triton's defaults, update rules
 * and messages, over HTTP and gRPC, and a TIMESTAMPS trace file in Triton's JSON format for one HTTP request.
 */
class TraceExtensionTest
{
    private static final String INFER = """
        {"inputs":[{"name":"INPUT0","shape":[4],"datatype":"INT32","data":[1,2,3,4]},
                   {"name":"INPUT1","shape":[4],"datatype":"INT32","data":[1,1,1,1]}]}
        """;

    private static JsonObject json(final HttpResponse<byte[]> response)
    {
        assertEquals(200, response.statusCode(), () -> new String(response.body(), StandardCharsets.UTF_8));
        return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8)).getAsJsonObject();
    }

    private static void assertError(final HttpResponse<byte[]> response, final int status, final String message)
    {
        final String body = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(status, response.statusCode(), body);
        assertEquals(message, JsonParser.parseString(body).getAsJsonObject().get("error").getAsString());
    }

    @Test
    void defaultsAreTritonsAndTracingIsOff()
    {
        try (ServingFixture server = new ServingFixture())
        {
            assertEquals(JsonParser.parseString("""
                {"trace_level":["OFF"],"trace_rate":"1000","trace_count":"-1","log_frequency":"0",
                 "trace_file":"","trace_mode":"triton"}"""), json(server.get("/v2/trace/setting")));
            assertEquals(json(server.get("/v2/trace/setting")),
                json(server.get("/v2/models/add_sub_int/trace/setting")));
            assertEquals(200, server.post("/v2/models/add_sub_int/infer", INFER).statusCode());
            assertEquals(null, TraceManager.forCore(server.core()).sample("add_sub_int", TraceFrontend.HTTP),
                "off: nothing sampled");
        }
    }

    @Test
    void malformedSettingsGetTritonsMessages()
    {
        try (ServingFixture server = new ServingFixture())
        {
            assertError(server.post("/v2/trace/setting", "{\"trace_rate\":\"abc\"}"), 400,
                "Unable to parse 'trace_rate', got: abc");
            assertError(server.post("/v2/trace/setting", "{\"trace_rate\":\"4294967296\"}"), 400,
                "Unable to parse 'trace_rate', value is out of range [ 0, 4294967295 ], got: 4294967296");
            assertError(server.post("/v2/trace/setting", "{\"trace_count\":\"-2\"}"), 400,
                "Unable to parse 'trace_count'. Expecting value >= -1, got:-2");
            assertError(server.post("/v2/trace/setting", "{\"trace_count\":\"2147483648\"}"), 400,
                "Unable to parse 'trace_count', value is out of range [ -1, 2147483647 ], got: 2147483648");
            assertError(server.post("/v2/trace/setting", "{\"log_frequency\":\"1.5\"}"), 400,
                "Unable to parse 'log_frequency', got: 1.5");
            assertError(server.post("/v2/trace/setting", "{\"trace_level\":[\"OFF\",\"TIMESTAMPS\"]}"), 400,
                "Expect only one trace level 'OFF' is specified");
            assertError(server.post("/v2/trace/setting", "{\"trace_level\":[\"TIMESTAMP\"]}"), 400,
                "Unable to parse 'trace_level', got: TIMESTAMP (expected OFF, TIMESTAMPS or TENSORS)");
            assertError(server.post("/v2/trace/setting", "{\"trace_rate\":100}"), 400,
                "Unable to parse 'trace_rate': expected a string value, got 100");
            assertError(server.post("/v2/trace/setting", "{\"trace_file\":\"/tmp/x.json\"}"), 501,
                "trace file location can not be updated through network protocol");
            assertError(server.post("/v2/trace/setting", "{\"trace_level\":[\"TIMESTAMPS\"]}"), 400,
                "Attempting to set invalid trace setting :trace file name is not given");
            assertError(server.post("/v2/models/nope/trace/setting", "{}"), 400, "Request for unknown model : nope");
            assertError(server.post("/v2/trace/setting", "[1"), 400, json400(server));
            // Nothing of the refused updates stuck.
            assertEquals("1000", json(server.get("/v2/trace/setting")).get("trace_rate").getAsString());
            final StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class, () -> server.grpc()
                .traceSetting(TraceSettingRequest.newBuilder().putSettings("trace_count",
                    TraceSettingRequest.SettingValue.newBuilder().addValue("-5").build()).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, grpc.getStatus().getCode());
            assertEquals("Unable to parse 'trace_count'. Expecting value >= -1, got:-5",
                grpc.getStatus().getDescription());
            final InferenceException startup = assertThrows(InferenceException.class, () -> TraceManager
                .forCore(server.core()).configure(List.of("level=TIMESTAMPS", "rate=0", "triton,file=/tmp/t")));
            assertEquals("Attempting to set invalid trace setting :sample rate must be non-zero",
                startup.getMessage());
        }
    }

    /** The parse error of a body that is not JSON names the parser's complaint; only its prefix is Triton's. */
    private static String json400(final ServingFixture server)
    {
        final String error = JsonParser.parseString(new String(server.post("/v2/trace/setting", "[1").body(),
            StandardCharsets.UTF_8)).getAsJsonObject().get("error").getAsString();
        assertTrue(error.startsWith("failed to parse the request JSON buffer: "), error);
        return error;
    }

    @Test
    void aModelSettingHoldsItsOwnFieldsAndFollowsTheGlobalOnesForTheRest(@TempDir final Path dir)
    {
        try (ServingFixture server = new ServingFixture())
        {
            final String file = dir.resolve("trace.json").toString();
            TraceManager.forCore(server.core()).configure(List.of("triton,file=" + file));
            final JsonObject model = json(server.post("/v2/models/add_sub_int/trace/setting",
                "{\"trace_rate\":\"5\"}"));
            assertEquals("5", model.get("trace_rate").getAsString());
            assertEquals(file, model.get("trace_file").getAsString());
            // A later global change reaches the fields the model did not give.
            json(server.post("/v2/trace/setting", "{\"trace_level\":[\"TIMESTAMPS\"],\"trace_count\":\"7\"}"));
            final JsonObject after = json(server.get("/v2/models/add_sub_int/trace/setting"));
            assertEquals("5", after.get("trace_rate").getAsString());
            assertEquals("7", after.get("trace_count").getAsString());
            assertEquals("[\"TIMESTAMPS\"]", after.get("trace_level").toString());
            assertEquals("1000", json(server.get("/v2/trace/setting")).get("trace_rate").getAsString());
            // Clearing the model's only field returns it to the global setting.
            assertEquals("1000", json(server.post("/v2/models/add_sub_int/trace/setting",
                "{\"trace_rate\":null}")).get("trace_rate").getAsString());
            final TraceSettingResponse grpc = server.grpc().traceSetting(TraceSettingRequest.newBuilder()
                .setModelName("add_sub_int").build());
            assertEquals(List.of("TIMESTAMPS"), grpc.getSettingsOrThrow("trace_level").getValueList());
            assertEquals(List.of("triton"), grpc.getSettingsOrThrow("trace_mode").getValueList());
            assertEquals(List.of("7"), grpc.getSettingsOrThrow("trace_count").getValueList());
        }
    }

    /**
     * A trace is complete only once its response was sent (HTTP_SEND_END), which may be after the client read the
     * response: flush until the writer has written the file, within a bound.
     */
    private static void awaitFile(final TraceManager manager, final Path file) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        manager.flush();
        while (!Files.exists(file) && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            manager.flush();
        }
        // The file may have appeared while the writer was still writing it: let it finish.
        manager.flush();
    }

    @Test
    void oneHttpRequestWritesItsTimestampsInTritonsFormat(@TempDir final Path dir) throws Exception
    {
        try (ServingFixture server = new ServingFixture())
        {
            final Path file = dir.resolve("trace.json");
            final TraceManager manager = TraceManager.forCore(server.core());
            manager.configure(List.of("triton,file=" + file));
            json(server.post("/v2/trace/setting", """
                {"trace_level":["TIMESTAMPS"],"trace_rate":"1","log_frequency":"1"}"""));
            final String request = INFER.replace("{\"inputs\"", "{\"id\":\"traced-1\",\"inputs\"");
            assertEquals(200, server.post("/v2/models/add_sub_int/infer", request).statusCode());
            final Path indexed = dir.resolve("trace.json.0");
            awaitFile(manager, indexed);
            assertTrue(Files.exists(indexed), "log_frequency 1 writes each trace to <trace_file>.<index>");
            final TraceEntries trace = TraceEntries.read(indexed);
            assertEquals(List.of("HTTP_RECV_START", "HTTP_RECV_END", "<model>", "REQUEST_START", "QUEUE_START",
                "INFER_RESPONSE_COMPLETE", "COMPUTE_START", "COMPUTE_INPUT_END", "COMPUTE_OUTPUT_START",
                "COMPUTE_END", "REQUEST_END", "HTTP_SEND_START", "HTTP_SEND_END"), trace.names);
            trace.assertInOrder();
            final JsonObject model = trace.model;
            assertEquals("add_sub_int", model.get("model_name").getAsString());
            assertEquals(1, model.get("model_version").getAsLong());
            assertEquals("traced-1", model.get("request_id").getAsString());

            // Rate 2: the next request is counted, not traced; the one after is trace 2, in the next file.
            json(server.post("/v2/trace/setting", "{\"trace_rate\":\"2\"}"));
            assertEquals(200, server.post("/v2/models/add_sub_int/infer", INFER).statusCode());
            manager.flush();
            assertFalse(Files.exists(dir.resolve("trace.json.1")));
            assertEquals(200, server.post("/v2/models/add_sub_int/infer", INFER).statusCode());
            awaitFile(manager, dir.resolve("trace.json.1"));
            final JsonArray second = JsonParser.parseString(Files.readString(dir.resolve("trace.json.1")))
                .getAsJsonArray();
            assertEquals(2, second.get(0).getAsJsonObject().get("id").getAsLong());
        }
    }

    /** One trace file's entries of trace 1: the timestamp names in order, with the model object as "<model>". */
    private static final class TraceEntries
    {
        final List<String> names = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        JsonObject model;

        static TraceEntries read(final Path file) throws IOException
        {
            final TraceEntries entries = new TraceEntries();
            for (final JsonElement element : JsonParser.parseString(Files.readString(file)).getAsJsonArray())
            {
                final JsonObject entry = element.getAsJsonObject();
                assertEquals(1, entry.get("id").getAsLong());
                if (entry.has("model_name"))
                {
                    entries.model = entry;
                    entries.names.add("<model>");
                    continue;
                }
                final JsonObject stamp = entry.getAsJsonArray("timestamps").get(0).getAsJsonObject();
                entries.names.add(stamp.get("name").getAsString());
                if (!stamp.get("name").getAsString().equals("INFER_RESPONSE_COMPLETE"))
                {
                    entries.times.add(stamp.get("ns").getAsLong());
                }
            }
            return entries;
        }

        void assertInOrder()
        {
            for (int i = 1; i < times.size(); i++)
            {
                assertTrue(times.get(i) >= times.get(i - 1), "timestamps in order: " + names + " " + times);
            }
        }
    }

    @Test
    void oneGrpcRequestIsTracedWithTritonsGrpcTimestampNames(@TempDir final Path dir) throws Exception
    {
        try (ServingFixture server = new ServingFixture())
        {
            final Path file = dir.resolve("grpc.json");
            final TraceManager manager = TraceManager.forCore(server.core());
            manager.configure(List.of("level=TIMESTAMPS", "rate=1", "triton,file=" + file, "triton,log-frequency=1"));
            final ModelInferRequest.Builder request = ModelInferRequest.newBuilder().setModelName("add_sub_int")
                .setId("grpc-traced");
            for (final String input : List.of("INPUT0", "INPUT1"))
            {
                request.addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName(input).setDatatype("INT32")
                    .addShape(4).setContents(InferTensorContents.newBuilder().addAllIntContents(List.of(1, 2, 3, 4))));
            }
            assertEquals(2, server.grpc().modelInfer(request.build()).getOutputsCount());
            final Path indexed = dir.resolve("grpc.json.0");
            awaitFile(manager, indexed);
            final TraceEntries trace = TraceEntries.read(indexed);
            assertEquals(List.of("GRPC_WAITREAD_START", "GRPC_WAITREAD_END", "<model>", "REQUEST_START",
                "QUEUE_START", "INFER_RESPONSE_COMPLETE", "COMPUTE_START", "COMPUTE_INPUT_END", "COMPUTE_OUTPUT_START",
                "COMPUTE_END", "REQUEST_END", "GRPC_SEND_START", "GRPC_SEND_END"), trace.names);
            trace.assertInOrder();
            assertEquals("grpc-traced", trace.model.get("request_id").getAsString());
            assertEquals(1, trace.model.get("model_version").getAsLong());
        }
    }
}
