package io.ingot.server.http;

import com.google.gson.JsonParser;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.RawHttp;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's {@code --http-max-input-size} rule, here at 64 KiB (Triton's QA {@code http_input_size_limit_test.py}
 * tests it at 64 and 128 MiB): it bounds the JSON of a request (at the byte: a body of exactly the limit passes, one
 * byte more is refused), the bytes a JSON tensor's data converts to (fixed-size and BYTES), a raw binary input, a
 * compressed body once decompressed and the JSON body of any other endpoint, each with Triton's text; it does not
 * bound binary tensor data, whether the body's length is declared or it comes in chunks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpInputSizeRuleTest
{
    private static final int LIMIT = 64 * 1024;

    private static final String HINT = " Use --http-max-input-size to increase the limit.";

    private final ServingFixture server = new ServingFixture(TestModels.options(
        TestModels.config("""
            name: "identity_fp32" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1] }]
            """),
        TestModels.config("""
            name: "identity_int64" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_INT64 dims: [-1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_INT64 dims: [-1] }]
            """),
        TestModels.config("""
            name: "identity_bytes" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_STRING dims: [-1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [-1] }]
            """)).build(), options -> options.withMaxHttpRequestBytes(LIMIT));

    @AfterAll
    void stop()
    {
        server.close();
    }

    private String url(final String model)
    {
        return server.httpUrl() + "/v2/models/" + model + "/infer";
    }

    private static String error(final HttpResponse<byte[]> response)
    {
        return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8)).getAsJsonObject()
            .get("error").getAsString();
    }

    private static String jsonTooLarge(final long size)
    {
        return "request JSON size of " + size + " bytes exceeds the maximum allowed input size of " + LIMIT + " bytes."
            + HINT;
    }

    /** @return a JSON request for identity_bytes of exactly {@code size} bytes (Triton's test pads one string) */
    private static String jsonOfSize(final int size)
    {
        final String empty = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"BYTES\",\"shape\":[1],"
            + "\"data\":[\"\"]}]}";
        final String body = empty.replace("[\"\"]", "[\"" + "A".repeat(size - empty.length()) + "\"]");
        assertEquals(size, body.length());
        return body;
    }

    @Test
    void theJsonOfARequestIsBoundedAtTheByte()
    {
        assertEquals(200, server.post("/v2/models/identity_bytes/infer", jsonOfSize(LIMIT)).statusCode());
        final HttpResponse<byte[]> over = server.post("/v2/models/identity_bytes/infer", jsonOfSize(LIMIT + 1));
        assertEquals(400, over.statusCode());
        assertEquals(jsonTooLarge(LIMIT + 1), error(over));
    }

    @Test
    void theJsonPartOfABinaryRequestIsBoundedByTheHeaderItDeclares() throws IOException
    {
        // Refused from the head, before the body is read: the JSON part alone is over the limit.
        try (Socket socket = new Socket("127.0.0.1", server.frontends().httpPort()))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(RawHttp.request("POST /v2/models/identity_fp32/infer HTTP/1.1\r\nHost: x\r\n"
                + "Inference-Header-Content-Length: " + (LIMIT + 10) + "\r\nContent-Length: " + (LIMIT + 20)
                + "\r\n\r\n", new byte[LIMIT + 20]));
            final RawHttp.Response refused = RawHttp.read(socket.getInputStream());
            assertEquals(400, refused.status(), refused.body());
            assertEquals(jsonTooLarge(LIMIT + 10), JsonParser.parseString(refused.body()).getAsJsonObject()
                .get("error").getAsString());
        }
    }

    @Test
    void binaryTensorDataIsNotBoundedWhetherDeclaredOrChunked()
    {
        // 20 MiB: past the limit, and past the pooled buffers (HttpBodyAggregator.LARGE_BODY_BYTES) into mapped memory.
        final float[] values = new float[5 << 20];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = i * 0.5f;
        }
        final InferBody request = new InferBody()
            .binaryInput("INPUT0", "FP32", new long[] {values.length}, InferBody.fp32(values))
            .output("OUTPUT0", true);
        final HttpResponse<byte[]> declared = server.send(request.request(url("identity_fp32")));
        assertEquals(200, declared.statusCode(), () -> new String(declared.body(), StandardCharsets.UTF_8));
        assertArrayEquals(InferBody.fp32(values), tail(declared, 4 * values.length));

        // The same body in chunks, without Content-Length: it outgrows the limit and moves from the pooled buffer.
        final HttpResponse<byte[]> chunked = server.send(HttpRequest.newBuilder(URI.create(url("identity_fp32")))
            .header("Inference-Header-Content-Length", Integer.toString(request.json().length()))
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(request.bytes())))
            .build());
        assertEquals(200, chunked.statusCode(), () -> new String(chunked.body(), StandardCharsets.UTF_8));
        assertArrayEquals(InferBody.fp32(values), tail(chunked, 4 * values.length));
    }

    private static byte[] tail(final HttpResponse<byte[]> response, final int length)
    {
        return Arrays.copyOfRange(response.body(), response.body().length - length, response.body().length);
    }

    @Test
    void aJsonTensorIsBoundedByTheBytesItConvertsTo()
    {
        // 12,000 INT64 elements: 24 KB of JSON, 96,000 bytes converted.
        final String data = ("1,".repeat(12_000 - 1)) + "1";
        final HttpResponse<byte[]> fixed = server.post("/v2/models/identity_int64/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"INT64\",\"shape\":[12000],\"data\":[" + data + "]}]}");
        assertEquals(400, fixed.statusCode());
        assertEquals("JSON input 'INPUT0' has a byte_size (96000 bytes) that exceeds the maximum allowed value of "
            + LIMIT + " bytes." + HINT, error(fixed));

        // 20,000 empty strings: 60 KB of JSON, 80,000 bytes converted (a 4-byte length each).
        final String strings = ("\"\",".repeat(20_000 - 1)) + "\"\"";
        final HttpResponse<byte[]> bytes = server.post("/v2/models/identity_bytes/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"BYTES\",\"shape\":[20000],\"data\":[" + strings + "]}]}");
        assertEquals(400, bytes.statusCode());
        assertEquals("JSON input 'INPUT0' has a byte_size (80000 bytes) that exceeds the maximum allowed value of "
            + LIMIT + " bytes." + HINT, error(bytes));
    }

    @Test
    void aRawBinaryInputIsBounded()
    {
        final byte[] raw = new byte[LIMIT + 4];
        final HttpResponse<byte[]> over = server.send(HttpRequest.newBuilder(URI.create(url("identity_fp32")))
            .header("Inference-Header-Content-Length", "0").POST(HttpRequest.BodyPublishers.ofByteArray(raw))
            .build());
        assertEquals(400, over.statusCode());
        assertEquals("Raw input has a byte_size (" + raw.length + " bytes) that exceeds the maximum allowed value of "
            + LIMIT + " bytes." + HINT, error(over));
        final HttpResponse<byte[]> within = server.send(HttpRequest.newBuilder(URI.create(url("identity_fp32")))
            .header("Inference-Header-Content-Length", "0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[LIMIT - 4])).build());
        assertEquals(200, within.statusCode(), () -> new String(within.body(), StandardCharsets.UTF_8));
    }

    @Test
    void aCompressedBodyIsBoundedOnceDecompressed() throws IOException
    {
        final ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzip))
        {
            out.write(jsonOfSize(LIMIT + 1024).getBytes(StandardCharsets.UTF_8));
        }
        final HttpResponse<byte[]> over = server.send(HttpRequest.newBuilder(URI.create(url("identity_bytes")))
            .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(gzip.toByteArray()))
            .build());
        assertEquals(400, over.statusCode());
        assertEquals("Decompressed data size exceeds the maximum allowed value of " + LIMIT + " bytes." + HINT,
            error(over));
    }

    @Test
    void theJsonBodyOfAnyOtherEndpointIsBounded()
    {
        final String index = "{\"ready\":true" + " ".repeat(LIMIT) + "}";
        final HttpResponse<byte[]> over = server.post("/v2/repository/index", index);
        assertEquals(400, over.statusCode());
        assertEquals(jsonTooLarge(index.length()), error(over));
        assertEquals(200, server.post("/v2/repository/index", "{\"ready\":true}").statusCode());
        // The same JSON in chunks, without Content-Length: refused when it outgrows the limit.
        final HttpResponse<byte[]> chunked = server.send(HttpRequest.newBuilder(
                URI.create(server.httpUrl() + "/v2/repository/index"))
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                index.getBytes(StandardCharsets.UTF_8)))).build());
        assertEquals(400, chunked.statusCode());
        final String refused = error(chunked);
        assertTrue(refused.startsWith("request JSON size of ") && refused.endsWith(" bytes exceeds the maximum"
            + " allowed input size of " + LIMIT + " bytes." + HINT), refused);
    }
}
