package io.ingot.server.http;

import io.ingot.server.testing.InferResult;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Raw binary requests ({@code Inference-Header-Content-Length: 0}) as Triton normalizes them (core
 * src/infer_request.cc {@code Normalize}, "Fill metadata for raw input"; server src/http_server.cc
 * {@code EVBufferToRawInput}; docs/protocol/extension_binary_data.md "Raw Binary Request"): batch 1 for a batching
 * model, one variable dimension deduced from the body size, a BYTES body taken as its single element, every output
 * binary.
 */
class RawBinaryRequestTest
{
    private static ServingFixture server;

    @BeforeAll
    static void start()
    {
        server = new ServingFixture();
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    private static HttpResponse<byte[]> raw(final String model, final byte[] body)
    {
        return server.send(HttpRequest.newBuilder(URI.create(server.httpUrl() + "/v2/models/" + model + "/infer"))
            .header(HttpInferDecoder.HEADER_LENGTH, "0").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    private static byte[] floats(final float... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            buffer.putFloat(value);
        }
        return buffer.array();
    }

    private static List<Long> shape(final InferResult result, final String output)
    {
        return result.output(output).getAsJsonArray("shape").asList().stream().map(e -> e.getAsLong()).toList();
    }

    @Test
    void aVariableDimensionIsDeducedFromTheBodyWithBatchOne()
    {
        // dims [-1], max_batch_size 8: Triton makes the shape [1, N] with N = body bytes / 4.
        final byte[] body = floats(1f, 2f, 3f, 4f, 5f);
        final InferResult result = InferResult.of(raw("identity_var", body));
        assertEquals(200, result.status(), result.json().toString());
        assertEquals(List.of(1L, 5L), shape(result, "OUTPUT0"));
        assertArrayEquals(body, result.binary("OUTPUT0"), "every output of a raw request is binary");
    }

    @Test
    void withoutBatchingTheDeducedDimensionIsTheWholeShape()
    {
        final InferResult result = InferResult.of(raw("identity_fp32", floats(7f, 8f, 9f)));
        assertEquals(200, result.status(), result.json().toString());
        assertEquals(List.of(3L), shape(result, "OUTPUT0"));
    }

    @Test
    void aBodyThatIsNotWholeElementsFailsTheByteSizeCheck()
    {
        // Triton divides (7 / 4 = 1 element) and the core's byte-size check then refuses 7 bytes for [1, 1].
        final HttpResponse<byte[]> response = raw("identity_var", new byte[7]);
        assertEquals(400, response.statusCode());
        assertTrue(new String(response.body(), StandardCharsets.UTF_8).contains("input byte size mismatch for input "
            + "'INPUT0' for model 'identity_var'. Expected 4, got 7"), new String(response.body(),
            StandardCharsets.UTF_8));
    }

    @Test
    void aRawBytesBodyIsTheSingleElementNotLengthPrefixed()
    {
        final byte[] text = "hello, raw world".getBytes(StandardCharsets.UTF_8);
        final InferResult result = InferResult.of(raw("identity_string", text));
        assertEquals(200, result.status(), result.json().toString());
        assertEquals(List.of(1L), shape(result, "OUTPUT0"));
        final byte[] expected = ByteBuffer.allocate(4 + text.length).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(text.length).put(text).array();
        assertArrayEquals(expected, result.binary("OUTPUT0"), "one element holding the whole body");
    }

    @Test
    void aBytesModelWhoseShapeIsNotOneElementIsRefusedWithTritonsMessage()
    {
        // identity_bytes has dims [-1]: Triton requires [1] for a raw BYTES input.
        final HttpResponse<byte[]> response = raw("identity_bytes", "x".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, response.statusCode());
        assertTrue(new String(response.body(), StandardCharsets.UTF_8).contains("[request id: <id_unknown>] For BYTE "
            + "datatype raw input 'INPUT0', the model must have input shape [1]"), new String(response.body(),
            StandardCharsets.UTF_8));
    }

    @Test
    void anEmptyBodyIsAnEmptyTensor()
    {
        final InferResult result = InferResult.of(raw("identity_var", new byte[0]));
        assertEquals(200, result.status(), result.json().toString());
        assertEquals(List.of(1L, 0L), shape(result, "OUTPUT0"));
    }
}
