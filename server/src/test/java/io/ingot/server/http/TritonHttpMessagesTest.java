package io.ingot.server.http;

import com.google.gson.JsonParser;
import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refusals whose text is Triton's, as its QA tests assert them (server {@code qa/L0_http/http_test.py},
 * {@code qa/L0_shared_memory/shared_memory_test.py}), over the HTTP frontend, with requests of this test's own:
 * a requested output named twice, an element count or byte size beyond int64, tensor data nested past 100 levels
 * (and the same depth elsewhere in a body, which Triton parses), the repository index's {@code ready} of the wrong
 * type, a {@code file:} name longer than the file system allows on load, and the shared-memory keys Triton refuses.
 * After each the server still answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TritonHttpMessagesTest
{
    private ServingFixture server;

    @BeforeAll
    void start(@TempDir final Path repository) throws IOException
    {
        Files.createDirectories(repository.resolve("identity_fp32").resolve("1"));
        Files.writeString(repository.resolve("identity_fp32").resolve("config.pbtxt"), """
            backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1, -1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1, -1] }]
            """);
        Files.createDirectories(repository.resolve("identity_bytes").resolve("1"));
        Files.writeString(repository.resolve("identity_bytes").resolve("config.pbtxt"), """
            backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_STRING dims: [-1, -1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [-1, -1] }]
            """);
        server = new ServingFixture(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("identity_fp32").startupModel("identity_bytes")
            .build(), UnaryOperator.identity());
    }

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static String error(final HttpResponse<byte[]> response)
    {
        return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8)).getAsJsonObject()
            .get("error").getAsString();
    }

    private void assertStillServing()
    {
        assertEquals(200, server.get("/v2/health/live").statusCode());
    }

    private static String nested(final int depth, final String value)
    {
        return "[".repeat(depth) + value + "]".repeat(depth);
    }

    @Test
    void anOutputRequestedTwice()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/identity_fp32/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,8],\"data\":[[0,1,2,3,4,5,6,7]]}],"
            + "\"outputs\":[{\"name\":\"OUTPUT0\"},{\"name\":\"OUTPUT0\"}]}");
        assertEquals(400, response.statusCode());
        assertEquals("[request id: <id_unknown>] output 'OUTPUT0' already exists in request", error(response));
        assertStillServing();
    }

    @Test
    void anElementCountOrAByteSizeBeyondInt64()
    {
        final HttpResponse<byte[]> count = server.post("/v2/models/identity_fp32/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[16," + ((1L << 60) + 2) + "],\"data\":[1.0]}]}");
        assertEquals(400, count.statusCode());
        assertEquals("invalid shape for input 'INPUT0': shape [16,1152921504606846978] causes total element count to"
            + " exceed maximum size of 9223372036854775807", error(count));

        final HttpResponse<byte[]> bytes = server.post("/v2/models/identity_fp32/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[4," + ((1L << 60) + 2) + "],\"data\":[1.0]}]}");
        assertEquals(400, bytes.statusCode());
        assertEquals("byte size overflow for input 'INPUT0': element count (4611686018427387912) * data type size (4)"
            + " exceeds maximum allowed size (9223372036854775807)", error(bytes));
        assertStillServing();
    }

    @Test
    void tensorDataNestedPast100LevelsAndTheSameDepthElsewhere()
    {
        for (final String model : new String[] {"identity_fp32", "identity_bytes"})
        {
            final String datatype = model.endsWith("bytes") ? "BYTES" : "FP32";
            final String value = model.endsWith("bytes") ? "\"hello\"" : "1.5";
            final String request = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"" + datatype
                + "\",\"shape\":[1,1],\"data\":%s}]}";
            final HttpResponse<byte[]> deep = server.post("/v2/models/" + model + "/infer",
                request.formatted(nested(120, value)));
            assertEquals(400, deep.statusCode());
            assertTrue(error(deep).startsWith("JSON nesting depth exceeds maximum allowed limit (100)"), error(deep));
            assertEquals(200, server.post("/v2/models/" + model + "/infer",
                request.formatted(nested(50, value))).statusCode(), model + " at depth 50");
        }
        // Elsewhere Triton parses any depth and then checks the field: a parameter must be a scalar.
        final HttpResponse<byte[]> parameter = server.post("/v2/models/identity_fp32/infer", "{\"inputs\":[{\"name\":"
            + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,1],\"data\":[1.0]}],\"parameters\":{\"p\":"
            + nested(200, "1") + "}}");
        assertEquals(400, parameter.statusCode());
        assertTrue(!error(parameter).contains("nesting depth"), error(parameter));
        // A body that is nothing but 200 nested arrays is answered as a body that is one array.
        final HttpResponse<byte[]> array = server.post("/v2/models/identity_fp32/infer", nested(200, "1"));
        assertEquals(error(server.post("/v2/models/identity_fp32/infer", "[1]")), error(array));
        assertStillServing();
    }

    @Test
    void theIndexReadyOfTheWrongTypeHoweverDeep()
    {
        for (final String ready : new String[] {nested(250_000, "true"), "\"yes\"", "null"})
        {
            final HttpResponse<byte[]> response = server.post("/v2/repository/index", "{\"ready\":" + ready + "}");
            assertEquals(400, response.statusCode());
            assertEquals("Invalid value for 'ready': expected a boolean", error(response));
        }
        assertEquals(200, server.post("/v2/repository/index", "{\"ready\":true}").statusCode());
    }

    @Test
    void aFileNameLongerThanTheFileSystemAllowsOnLoad()
    {
        final HttpResponse<byte[]> response = server.post("/v2/repository/models/identity_fp32/load",
            "{\"parameters\":{\"file:" + "A".repeat(256) + "\":\"YQ==\",\"config\":\"{}\"}}");
        assertEquals(500, response.statusCode());
        assertTrue(error(response).startsWith("failed to load 'identity_fp32', failed to poll from model repository"),
            error(response));
        assertTrue(error(response).length() < 300, "the long name is not echoed: " + error(response));
        assertEquals(200, server.get("/v2/health/ready").statusCode(), "the server stays up");
    }

    @Test
    void sharedMemoryKeysTritonRefuses()
    {
        final String reserved = "triton_python_backend_shm_region_";
        for (final String key : new String[] {reserved + "_my_test_shm_key", "/" + reserved + "_my_test_shm_key",
            "///" + reserved + "_my_test_shm_key"})
        {
            final HttpResponse<byte[]> response = server.post("/v2/systemsharedmemory/region/my_test_shm_name/register",
                "{\"key\":\"" + key + "\",\"offset\":0,\"byte_size\":10000}");
            assertEquals(400, response.statusCode());
            assertEquals("cannot register shared memory region 'my_test_shm_name' with key '" + key + "' as the key"
                + " contains the reserved prefix '" + reserved + "'", error(response));
        }
        for (final String key : new String[] {"/", "///"})
        {
            final HttpResponse<byte[]> response = server.post("/v2/systemsharedmemory/region/my_test_shm_name/register",
                "{\"key\":\"" + key + "\",\"offset\":0,\"byte_size\":10000}");
            assertEquals(400, response.statusCode());
            assertEquals("cannot register shared memory region 'my_test_shm_name' - invalid shm key '" + key + "'",
                error(response));
        }
    }
}
