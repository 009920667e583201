package io.ingot.server.http;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.api.CoreOptions;
import io.ingot.api.ModelStatistics;
import io.ingot.server.testing.ExampleModels;
import io.ingot.server.testing.RawHttp;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's generate extension ({@code docs/protocol/extension_generate.md}; {@code server src/http_server.cc}
 * {@code HandleGenerate} and {@code GenerateRequestClass}): top-level keys mapped to inputs by the model's metadata
 * and otherwise to parameters, the response object with its keys in Triton's order, one server-sent event per
 * response of the decoupled {@code repeat_int32}, and Triton's errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GenerateExtensionTest
{
    private final ServingFixture server = new ServingFixture(CoreOptions.builder()
        .model(ExampleModels.config("repeat_int32"))
        .model(TestModels.config("name: 'text' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'text_input' data_type: TYPE_STRING dims: [1] }]"
            + " output [{ name: 'text_output' data_type: TYPE_STRING dims: [1] }]"))
        .model(TestModels.config("name: 'add_sub_batch' backend: 'add_sub' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [4] }, { name: 'INPUT1' data_type: TYPE_FP32"
            + " dims: [4] }] output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [4] },"
            + " { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [4] }]"))
        .model(TestModels.config("name: 'identity_int' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [-1] }]"))
        .build(), UnaryOperator.identity());

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static String text(final HttpResponse<byte[]> response)
    {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    private static List<JsonObject> events(final String body)
    {
        final List<JsonObject> events = new ArrayList<>();
        for (final String line : body.split("\n"))
        {
            if (line.startsWith("data: "))
            {
                events.add(JsonParser.parseString(line.substring(6)).getAsJsonObject());
            }
        }
        return events;
    }

    @Test
    void theDocumentsExampleMapsTextInputToTheInputAndTheRestToParameters()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/text/generate",
            "{\"id\": \"42\", \"text_input\": \"client input\", \"parameters\": {\"stream\": false, "
                + "\"temperature\": 0}}");
        assertEquals(200, response.statusCode(), text(response));
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertEquals("{\"id\":\"42\",\"model_name\":\"text\",\"model_version\":\"1\",\"text_output\":\"client input\"}",
            text(response), "Triton's keys, in its std::map order");
        final HttpResponse<byte[]> versioned = server.post("/v2/models/text/versions/1/generate",
            "{\"text_input\": \"v\"}");
        assertEquals("{\"model_name\":\"text\",\"model_version\":\"1\",\"text_output\":\"v\"}", text(versioned),
            "no id without one in the request");
    }

    @Test
    void anArrayFillsTheModelsShapeWithTheBatchDimensionOne()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/add_sub_batch/generate",
            "{\"INPUT0\": [1, 2, 3, 4], \"INPUT1\": [1, 1, 1, 1]}");
        assertEquals(200, response.statusCode(), text(response));
        final JsonObject json = JsonParser.parseString(text(response)).getAsJsonObject();
        assertEquals(List.of("OUTPUT0", "OUTPUT1", "model_name", "model_version"), List.copyOf(json.keySet()));
        assertEquals("[2.0,3.0,4.0,5.0]", json.get("OUTPUT0").toString());
        assertEquals("[0.0,1.0,2.0,3.0]", json.get("OUTPUT1").toString());

        final HttpResponse<byte[]> ragged = server.post("/v2/models/add_sub_batch/generate",
            "{\"INPUT0\": [1, 2, 3], \"INPUT1\": [1, 1, 1, 1]}");
        assertEquals(400, ragged.statusCode());
        assertTrue(text(ragged).contains("The schema can not convert input 'INPUT0' to tensor with proper shape"),
            text(ragged));
    }

    @Test
    void generateStreamSendsOneEventPerResponseOfADecoupledModel()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/repeat_int32/generate_stream",
            "{\"IN\": [4, 5, 6], \"DELAY\": [0, 10, 0], \"WAIT\": 0}");
        assertEquals(200, response.statusCode(), text(response));
        assertEquals("text/event-stream; charset=utf-8", response.headers().firstValue("content-type")
            .orElseThrow());
        assertTrue(text(response).startsWith("data: {\"IDX\":0,\"OUT\":4,\"model_name\":\"repeat_int32\","
            + "\"model_version\":\"1\"}\n\n"), text(response));
        final List<JsonObject> events = events(text(response));
        assertEquals(3, events.size(), text(response));
        for (int i = 0; i < 3; i++)
        {
            assertEquals(4 + i, events.get(i).get("OUT").getAsInt());
            assertEquals(i, events.get(i).get("IDX").getAsInt());
        }
        final HttpResponse<byte[]> none = server.post("/v2/models/repeat_int32/generate_stream",
            "{\"IN\": [], \"DELAY\": [], \"WAIT\": 0}");
        assertEquals(400, none.statusCode(), "an empty array is an input without dimensions, as in Triton");

        // A model that is not decoupled streams its one response.
        final HttpResponse<byte[]> single = server.post("/v2/models/text/generate_stream", "{\"text_input\": \"s\"}");
        assertEquals(200, single.statusCode());
        assertEquals("data: {\"model_name\":\"text\",\"model_version\":\"1\",\"text_output\":\"s\"}\n\n",
            text(single));
    }

    @Test
    void generateWantsExactlyOneResponse()
    {
        final HttpResponse<byte[]> one = server.post("/v2/models/repeat_int32/generate",
            "{\"IN\": [7], \"DELAY\": [0], \"WAIT\": [0]}");
        assertEquals(200, one.statusCode(), text(one));
        assertEquals("{\"IDX\":0,\"OUT\":7,\"model_name\":\"repeat_int32\",\"model_version\":\"1\"}", text(one));
        final HttpResponse<byte[]> three = server.post("/v2/models/repeat_int32/generate",
            "{\"IN\": [1, 2, 3], \"DELAY\": [0, 0, 0], \"WAIT\": [0]}");
        assertEquals(500, three.statusCode());
        assertEquals("{\"error\":\"" + HttpGenerateExchange.NOT_ONE_RESPONSE + "\"}", text(three));
    }

    @Test
    void aFailedFirstResponseSetsTheStreamsStatusAndIsAnErrorEvent()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/repeat_int32/generate_stream",
            "{\"IN\": [1, 2], \"DELAY\": [0], \"WAIT\": 0}");
        assertEquals(400, response.statusCode(), text(response));
        assertEquals("text/event-stream; charset=utf-8", response.headers().firstValue("content-type")
            .orElseThrow());
        final List<JsonObject> events = events(text(response));
        assertEquals(1, events.size(), text(response));
        assertTrue(events.getFirst().get("error").getAsString().contains("expected IN and DELAY shape to match"),
            text(response));
    }

    @Test
    void badRequestsGetTritonsErrors()
    {
        assertError("/v2/models/nope/generate", "{}", 400, "Request for unknown model: 'nope' is not found");
        assertError("/v2/models/identity_int/generate", "{\"INPUT0\": \"four\"}", 400,
            "attempt to access JSON non-signed-integer as signed-integer (unable to parse 'data' of input 'INPUT0': "
                + "element 0 is a string, expected an integer for datatype INT32)");
        assertError("/v2/models/identity_int/generate", "{\"INPUT0\": [1, 2.5]}", 400,
            "attempt to access JSON non-signed-integer as signed-integer (unable to parse 'data' of input 'INPUT0': "
                + "element 1 is 2.5, expected an integer for datatype INT32)");
        assertError("/v2/models/text/generate", "{\"text_input\": 5}", 400,
            "attempt to access JSON non-string as string (unable to parse 'data' of input 'text_input': element 0 "
                + "is 5, expected a JSON string for datatype BYTES)");
        assertError("/v2/models/text/generate", "[1]", 400, "attempt to access JSON non-object as object (a "
            + "generate request is a JSON object, got an array of 1 elements)");
        assertError("/v2/models/text/generate", "{\"id\": 3, \"text_input\": \"x\"}", 400,
            "Unable to parse 'id': attempt to access JSON non-string as string (got 3)");
        assertError("/v2/models/text/generate", "{\"text_input\": \"x\", \"parameters\": 3}", 400,
            "Expected JSON object for keyword: 'parameters': attempt to access JSON non-object as object (got 3)");
        assertError("/v2/models/text/generate", "{\"text_input\": \"x\", \"parameters\": {\"triton_x\": 1}}", 400,
            "Converting keyword: 'parameters': parameter keys starting with 'triton_' are reserved for Triton usage "
                + "and should not be specified. (parameter 'triton_x')");
        final HttpResponse<byte[]> missing = server.post("/v2/models/add_sub_batch/generate",
            "{\"INPUT0\": [1, 2, 3, 4]}");
        assertEquals(400, missing.statusCode(), text(missing));
        assertTrue(text(missing).contains("INPUT1"), "the core names the missing input: " + text(missing));

        final HttpResponse<byte[]> compressed = server.send(HttpRequest.newBuilder(
                URI.create(server.httpUrl() + "/v2/models/text/generate"))
            .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertEquals(400, compressed.statusCode());
        assertEquals("{\"error\":\"Unsupported content-encoding, only 'identity' is supported.\"}",
            text(compressed));
        assertEquals(405, server.get("/v2/models/text/generate").statusCode());
        final HttpResponse<byte[]> decoupledInfer = server.post("/v2/models/repeat_int32/infer", "{\"inputs\": []}");
        assertEquals(501, decoupledInfer.statusCode(), "/infer still refuses decoupled models, as Triton does");
    }

    private void assertError(final String path, final String body, final int status, final String message)
    {
        final HttpResponse<byte[]> response = server.post(path, body);
        assertEquals(status, response.statusCode(), text(response));
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertEquals(message, JsonParser.parseString(text(response)).getAsJsonObject().get("error").getAsString());
    }

    @Test
    void eventsAreSentAsTheyComeAndAClientThatGoesAwayCancelsTheRequest() throws Exception
    {
        final ModelStatistics before = server.core().modelStatistics("repeat_int32", 1).getFirst();
        final byte[] body = "{\"IN\": [1, 2], \"DELAY\": [0, 120000], \"WAIT\": 0}".getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", server.frontends().httpPort()))
        {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(RawHttp.request("POST /v2/models/repeat_int32/generate_stream HTTP/1.1\r\n"
                + "Host: x\r\nContent-Length: " + body.length + "\r\n\r\n", body));
            final InputStream in = socket.getInputStream();
            assertEquals("HTTP/1.1 200 OK", RawHttp.line(in));
            String line;
            boolean chunked = false;
            while (!(line = RawHttp.line(in)).isEmpty())
            {
                chunked |= line.equalsIgnoreCase("transfer-encoding: chunked");
            }
            assertTrue(chunked);
            // The second response waits two minutes: the first event must be on the wire long before.
            while (!(line = RawHttp.line(in)).startsWith("data: "))
            {
                assertFalse(line.startsWith("0"), "the stream ended early");
            }
            assertEquals(1, JsonParser.parseString(line.substring(6)).getAsJsonObject().get("OUT").getAsInt());
        }
        // The socket is closed: the request is cancelled in the model, which stops waiting and ends its execution.
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (server.core().modelStatistics("repeat_int32", 1).getFirst().executionCount()
            == before.executionCount())
        {
            assertTrue(System.nanoTime() < deadline, "the abandoned stream was never cancelled");
            Thread.sleep(10);
        }
    }
}
