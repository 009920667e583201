package io.ingot.server.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.InferResult;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code POST /v2/models/{m}/infer}: encodings, compression, datatypes and every bad-input answer. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpInferTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private String url(final String model)
    {
        return server.httpUrl() + "/v2/models/" + model + "/infer";
    }

    private static float[] ramp(final float start)
    {
        final float[] values = new float[16];
        for (int i = 0; i < 16; i++)
        {
            values[i] = start + i * 0.5f;
        }
        return values;
    }

    private InferResult addSubBinary(final String id)
    {
        final HttpResponse<byte[]> response = server.send(new InferBody().id(id)
            .binaryInput("INPUT0", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(1)))
            .binaryInput("INPUT1", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(-3)))
            .output("OUTPUT0", true).output("OUTPUT1", true)
            .request(url("add_sub")));
        return InferResult.of(response);
    }

    private static void assertAddSub(final InferResult result)
    {
        assertEquals(200, result.status(), result.json().toString());
        final float[] a = ramp(1);
        final float[] b = ramp(-3);
        final float[] sum = result.fp32("OUTPUT0");
        final float[] difference = result.fp32("OUTPUT1");
        assertEquals(16, sum.length);
        for (int i = 0; i < 16; i++)
        {
            assertEquals(a[i] + b[i], sum[i]);
            assertEquals(a[i] - b[i], difference[i]);
        }
    }

    private void assertError(final HttpResponse<byte[]> response, final int status, final String fragment)
    {
        final String body = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(status, response.statusCode(), body);
        final String error = JsonParser.parseString(body).getAsJsonObject().get("error").getAsString();
        assertTrue(error.contains(fragment), error);
        // Other clients keep being served.
        assertAddSub(addSubBinary("after-error"));
    }

    @Test
    void binaryInputsAndOutputsAsTritonclientSendsThem()
    {
        final HttpResponse<byte[]> response = server.send(new InferBody()
            .binaryInput("INPUT0", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(1)))
            .binaryInput("INPUT1", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(-3)))
            .output("OUTPUT0", true).output("OUTPUT1", true)
            .request(url("add_sub")));
        assertEquals("application/octet-stream", response.headers().firstValue("content-type").orElseThrow());
        final InferResult result = InferResult.of(response);
        assertAddSub(result);
        assertEquals("add_sub", result.json().get("model_name").getAsString());
        assertEquals(new JsonPrimitive("1"), result.json().get("model_version"));
        assertFalse(result.json().has("id"), "an empty id is omitted");
        final JsonObject output = result.output("OUTPUT0");
        assertEquals("[1,16]", output.getAsJsonArray("shape").toString());
        assertEquals(64, output.getAsJsonObject("parameters").get("binary_data_size").getAsInt());
        assertFalse(output.has("data"));
    }

    @Test
    void jsonOnlyRequestGetsJsonWithoutParameters()
    {
        final HttpResponse<byte[]> response = server.send(new InferBody().id("json-1")
            .jsonInput("INPUT0", "INT32", new long[] {4}, JsonParser.parseString("[1, 2, 3, 4]"))
            .jsonInput("INPUT1", "INT32", new long[] {4}, JsonParser.parseString("[[10, 20], [30, 40]]"))
            .request(url("add_sub_int")));
        assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        assertTrue(response.headers().firstValue("Inference-Header-Content-Length").isEmpty());
        final InferResult result = InferResult.of(response);
        assertEquals("json-1", result.json().get("id").getAsString());
        assertArrayEquals(new int[] {11, 22, 33, 44}, result.int32("OUTPUT0"));
        assertArrayEquals(new int[] {-9, -18, -27, -36}, result.int32("OUTPUT1"));
        assertFalse(result.output("OUTPUT0").has("parameters"));
    }

    @Test
    void mixedJsonAndBinaryInputsAndOutputs()
    {
        final HttpResponse<byte[]> response = server.send(new InferBody()
            .jsonInput("IN_F", "FP32", new long[] {1, 2}, JsonParser.parseString("[1.1, -2]"))
            .binaryInput("IN_I", "INT64", new long[] {1, 2}, new byte[] {5, 0, 0, 0, 0, 0, 0, 0,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF})
            .jsonInput("IN_B", "BOOL", new long[] {1, 2}, JsonParser.parseString("[true, false]"))
            .output("OUT_F", false).output("OUT_I", false).output("OUT_B", true)
            .request(url("identity_mixed")));
        final InferResult result = InferResult.of(response);
        assertEquals(200, result.status(), result.json().toString());
        assertEquals("[1.100000023841858,-2.0]", result.output("OUT_F").getAsJsonArray("data").toString());
        assertEquals("[5,-1]", result.output("OUT_I").getAsJsonArray("data").toString());
        assertArrayEquals(new byte[] {1, 0}, result.binary("OUT_B"));
        assertNull(result.binary("OUT_F"));
    }

    @Test
    void binaryDataOutputAppliesWhenNoOutputIsListed()
    {
        final InferResult result = InferResult.of(server.send(new InferBody()
            .parameter("binary_data_output", new JsonPrimitive(true))
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1))
            .request(url("add_sub_int"))));
        assertEquals(200, result.status());
        assertArrayEquals(new int[] {2, 3, 4, 5}, result.int32("OUTPUT0"));
        assertArrayEquals(new int[] {0, 1, 2, 3}, result.int32("OUTPUT1"));
        assertTrue(result.binary("OUTPUT0") != null && result.binary("OUTPUT1") != null);
    }

    @Test
    void bytesTensorsKeepTheirLengthPrefixes()
    {
        final byte[] tensor = InferBody.bytesTensor("hello", "", "w\u00f6rld");
        final InferResult binary = InferResult.of(server.send(new InferBody()
            .binaryInput("INPUT0", "BYTES", new long[] {3}, tensor).output("OUTPUT0", true)
            .request(url("identity_bytes"))));
        assertEquals(200, binary.status(), binary.json().toString());
        assertArrayEquals(tensor, binary.binary("OUTPUT0"));
        assertEquals(tensor.length, binary.output("OUTPUT0").getAsJsonObject("parameters").get("binary_data_size")
            .getAsInt());

        final InferResult json = InferResult.of(server.send(new InferBody()
            .jsonInput("INPUT0", "BYTES", new long[] {2}, JsonParser.parseString("[\"a\\\"b\", \"\u00e9\"]"))
            .output("OUTPUT0", false).request(url("identity_bytes"))));
        assertEquals(200, json.status());
        final JsonArray data = json.output("OUTPUT0").getAsJsonArray("data");
        assertEquals("a\"b", data.get(0).getAsString());
        assertEquals("\u00e9", data.get(1).getAsString());
    }

    @Test
    void halfPrecisionTravelsOnlyAsBinary()
    {
        final byte[] halves = {0x00, 0x3C, 0x00, 0x40, 0x00, (byte) 0xC0, 0x00, 0x00};
        final InferResult result = InferResult.of(server.send(new InferBody()
            .binaryInput("INPUT0", "FP16", new long[] {4}, halves).output("OUTPUT0", true)
            .request(url("identity_fp16"))));
        assertEquals(200, result.status());
        assertArrayEquals(halves, result.binary("OUTPUT0"));

        assertError(server.send(new InferBody().binaryInput("INPUT0", "FP16", new long[] {4}, halves)
            .output("OUTPUT0", false).request(url("identity_fp16"))), 400, "FP16");
        assertError(server.send(new InferBody().jsonInput("INPUT0", "FP16", new long[] {4},
            JsonParser.parseString("[1,2,3,4]")).request(url("identity_fp16"))), 400, "FP16");
    }

    @Test
    void rawBinaryRequestFeedsTheSingleInput()
    {
        final byte[] halves = {0x00, 0x3C, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44};
        final HttpResponse<byte[]> response = server.send(HttpRequest.newBuilder(URI.create(url("identity_fp16")))
            .header("Inference-Header-Content-Length", "0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(halves)).build());
        final InferResult result = InferResult.of(response);
        assertEquals(200, result.status(), result.json().toString());
        assertArrayEquals(halves, result.binary("OUTPUT0"));

        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .header("Inference-Header-Content-Length", "0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[64])).build()), 400, "[request id: <id_unknown>] "
            + "Raw request must only have 1 input (found 1) to be deduced but got 2 inputs in 'add_sub' model "
            + "configuration");
    }

    @Test
    void gzipAndDeflateBodiesBothWays() throws IOException
    {
        final InferBody body = new InferBody()
            .binaryInput("INPUT0", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(1)))
            .binaryInput("INPUT1", "FP32", new long[] {1, 16}, InferBody.fp32(ramp(-3)))
            .output("OUTPUT0", true).output("OUTPUT1", false);
        final String headerLength = Integer.toString(body.json().getBytes(StandardCharsets.UTF_8).length);

        final ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzip))
        {
            out.write(body.bytes());
        }
        final HttpResponse<byte[]> gzipped = server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .header("Inference-Header-Content-Length", headerLength)
            .header("Content-Encoding", "gzip").header("Accept-Encoding", "gzip")
            .POST(HttpRequest.BodyPublishers.ofByteArray(gzip.toByteArray())).build());
        assertEquals(200, gzipped.statusCode());
        assertEquals("gzip", gzipped.headers().firstValue("content-encoding").orElseThrow());
        final byte[] unzipped;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body())))
        {
            unzipped = in.readAllBytes();
        }
        assertAddSub(new InferResult(gzipped, unzipped));

        final ByteArrayOutputStream zlib = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(zlib))
        {
            out.write(body.bytes());
        }
        final HttpResponse<byte[]> deflated = server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .header("Inference-Header-Content-Length", headerLength)
            .header("Content-Encoding", "deflate").header("Accept-Encoding", "gzip;q=0.5, deflate")
            .POST(HttpRequest.BodyPublishers.ofByteArray(zlib.toByteArray())).build());
        assertEquals(200, deflated.statusCode());
        assertEquals("deflate", deflated.headers().firstValue("content-encoding").orElseThrow());
        final byte[] inflated;
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(deflated.body())))
        {
            inflated = in.readAllBytes();
        }
        assertAddSub(new InferResult(deflated, inflated));

        final HttpResponse<byte[]> brotli = server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .header("Content-Encoding", "br").POST(HttpRequest.BodyPublishers.ofByteArray(new byte[10])).build());
        assertEquals("gzip, deflate", brotli.headers().firstValue("accept-encoding").orElse(""));
        assertError(brotli, 501, "Content-Encoding");
    }

    @Test
    void parametersPriorityAndTimeoutAreAcceptedAndSequencesIgnoredByAModelWithoutSequenceBatching()
    {
        final InferBody ok = new InferBody().parameter("priority", new JsonPrimitive(1))
            .parameter("timeout", new JsonPrimitive(60_000_000))
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1));
        assertEquals(200, server.send(ok.request(url("add_sub_int"))).statusCode());
        // As in Triton, a model without sequence_batching runs a request whatever its correlation ID.
        assertEquals(200, server.send(new InferBody().parameter("sequence_id", new JsonPrimitive(7))
            .parameter("sequence_start", new JsonPrimitive(true))
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1))
            .request(url("add_sub_int"))).statusCode());
        assertError(server.send(new InferBody().parameter("sequence_id", new JsonPrimitive(true))
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1))
            .request(url("add_sub_int"))), 400, "Unable to parse 'sequence_id'");
        assertError(server.send(new InferBody().parameter("priority", new JsonPrimitive("high"))
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1))
            .request(url("add_sub_int"))), 400, "priority");
    }

    @Test
    void badInputsGetTritonsStatusAndANamedProblem()
    {
        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .POST(HttpRequest.BodyPublishers.ofString("{\"inputs\": [")).build()), 400,
            "failed to parse the request JSON");
        assertError(server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {1, 16}, new byte[64])
            .binaryInput("INPUT1", "INT32", new long[] {1, 16}, new byte[64])
            .request(url("add_sub"))), 400, "data-type");
        assertError(server.send(new InferBody()
            .jsonInput("INPUT0", "INT32", new long[] {2, 4}, JsonParser.parseString("[1, 2, 3]"))
            .jsonInput("INPUT1", "INT32", new long[] {4}, JsonParser.parseString("[1, 2, 3, 4]"))
            .request(url("add_sub_int"))), 400, "shape does not match");
        assertError(server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, new byte[16])
            .binaryInput("INPUT1", "INT32", new long[] {4}, new byte[16])
            .request(url("no_such_model"))), 400, "Request for unknown model: 'no_such_model' is not found");
        assertError(server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, new byte[16])
            .binaryInput("INPUT1", "INT32", new long[] {4}, new byte[16])
            .request(server.httpUrl() + "/v2/models/add_sub_int/versions/5/infer")), 404, "version 5");
        assertError(server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, new byte[16])
            .binaryInput("INPUT1", "INT32", new long[] {4}, new byte[16])
            .output("OUTPUT7", true)
            .request(url("add_sub_int"))), 400, "OUTPUT7");
        assertError(server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, new byte[16])
            .request(url("add_sub_int"))), 400, "INPUT1");
    }

    @Test
    void binarySizesThatDisagreeWithTheBodyAreRefused()
    {
        final InferBody body = new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, new byte[16])
            .binaryInput("INPUT1", "INT32", new long[] {4}, new byte[16]);
        final byte[] full = body.bytes();
        final int headerLength = body.json().getBytes(StandardCharsets.UTF_8).length;
        final byte[] truncated = Arrays.copyOf(full, full.length - 5);
        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub_int")))
            .header("Inference-Header-Content-Length", Integer.toString(headerLength))
            .POST(HttpRequest.BodyPublishers.ofByteArray(truncated)).build()), 400,
            "unexpected size for input 'INPUT1'");
        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub_int")))
            .header("Inference-Header-Content-Length", Integer.toString(headerLength - 3))
            .POST(HttpRequest.BodyPublishers.ofByteArray(full)).build()), 400, "failed to parse the request JSON");
        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub_int")))
            .header("Inference-Header-Content-Length", Integer.toString(full.length + 1))
            .POST(HttpRequest.BodyPublishers.ofByteArray(full)).build()), 400, "outside the request body");
        final byte[] longer = Arrays.copyOf(full, full.length + 4);
        assertError(server.send(HttpRequest.newBuilder(URI.create(url("add_sub_int")))
            .header("Inference-Header-Content-Length", Integer.toString(headerLength))
            .POST(HttpRequest.BodyPublishers.ofByteArray(longer)).build()), 400, "unexpected additional input data");
    }

    @Test
    void oversizedBodyIsRefusedAndTheServerKeepsServing()
    {
        final byte[] huge = new byte[(int) ServingFixture.MAX_HTTP_BYTES + 1024];
        final HttpResponse<byte[]> response = server.send(HttpRequest.newBuilder(URI.create(url("add_sub")))
            .POST(HttpRequest.BodyPublishers.ofByteArray(huge)).build());
        // The whole body is the request's JSON: Triton's rule and words (--http-max-input-size).
        assertError(response, 400, "request JSON size of " + huge.length + " bytes exceeds the maximum allowed input"
            + " size of " + ServingFixture.MAX_HTTP_BYTES + " bytes. Use --http-max-input-size to increase the limit.");
    }

    @Test
    void fullQueueAnswers503()
    {
        final List<CompletableFuture<HttpResponse<byte[]>>> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            sent.add(server.http().sendAsync(new InferBody()
                .binaryInput("INPUT0", "INT32", new long[] {1, 1}, InferBody.int32(i)).request(url("slow")),
                HttpResponse.BodyHandlers.ofByteArray()));
        }
        int ok = 0;
        int unavailable = 0;
        for (final var future : sent)
        {
            final HttpResponse<byte[]> response = future.join();
            if (response.statusCode() == 200)
            {
                ok++;
            }
            else
            {
                assertEquals(503, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
                assertTrue(new String(response.body(), StandardCharsets.UTF_8).contains("Exceeds maximum queue size"));
                unavailable++;
            }
        }
        assertTrue(ok >= 1 && unavailable >= 1, ok + " succeeded, " + unavailable + " refused");
    }

    @Test
    void requestTimeoutExpiresInTheQueueWith503() throws Exception
    {
        // Accepted in-process first, so that the timed request certainly queues behind its 300 ms execution.
        final CompletableFuture<InferenceResponse> occupying = server.core()
            .submit(new InferenceRequest("slow_timeout").addInput("INPUT0", DataType.INT32,
                new long[] {1, 1}, MemorySegment.ofArray(new int[] {1})));
        final HttpResponse<byte[]> timedOut = server.send(new InferBody()
            .parameter("timeout", new JsonPrimitive(1000))
            .binaryInput("INPUT0", "INT32", new long[] {1, 1}, InferBody.int32(2)).request(url("slow_timeout")));
        final String body = new String(timedOut.body(), StandardCharsets.UTF_8);
        assertEquals(503, timedOut.statusCode(), body);
        assertTrue(body.contains("Request timeout expired"), body);
        try (InferenceResponse first = occupying.get(60, TimeUnit.SECONDS))
        {
            assertTrue(first.isOk(), String.valueOf(first.error()));
        }
    }

    /**
     * Issue 14, defect 6: a JSON response with non-finite values (Triton's rapidjson writes {@code NaN},
     * {@code Infinity}, {@code -Infinity}) is read back by Ingot as Triton reads it, and {@code 1e39} for FP32 is
     * refused instead of becoming infinity.
     */
    @Test
    void nonFiniteJsonOutputsReadBackAndOutOfRangeInputsAreRefused()
    {
        final HttpResponse<byte[]> printed = server.send(new InferBody()
            .binaryInput("INPUT0", "FP32", new long[] {4}, InferBody.fp32(Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, 2f))
            .output("OUTPUT0", false)
            .request(url("identity_fp32")));
        final String text = new String(printed.body(), StandardCharsets.UTF_8);
        assertEquals(200, printed.statusCode(), text);
        final int data = text.indexOf("\"data\":[");
        final String values = text.substring(data + 7, text.indexOf(']', data) + 1);
        assertEquals("[NaN,Infinity,-Infinity,2.0]", values);

        final String again = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[4],\"data\":"
            + values + "}],\"outputs\":[{\"name\":\"OUTPUT0\",\"parameters\":{\"binary_data\":true}}]}";
        final InferResult echoed = InferResult.of(server.post("/v2/models/identity_fp32/infer", again));
        assertEquals(200, echoed.status(), echoed.json().toString());
        final float[] back = echoed.fp32("OUTPUT0");
        assertTrue(Float.isNaN(back[0]));
        assertEquals(Float.POSITIVE_INFINITY, back[1]);
        assertEquals(Float.NEGATIVE_INFINITY, back[2]);
        assertEquals(2f, back[3]);

        final HttpResponse<byte[]> tooLarge = server.post("/v2/models/identity_fp32/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[2],\"data\":[1,1e39]}]}");
        assertEquals(400, tooLarge.statusCode());
        assertTrue(new String(tooLarge.body(), StandardCharsets.UTF_8).contains("input 'INPUT0': element 1 is 1e39, "
            + "outside the range of FP32"), new String(tooLarge.body(), StandardCharsets.UTF_8));
    }
}
