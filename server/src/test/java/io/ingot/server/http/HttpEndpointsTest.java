package io.ingot.server.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.server.protocol.ServerExtensions;
import io.ingot.server.testing.ServingFixture;
import io.ingot.server.testing.ShmObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every non-inference HTTP endpoint, with its success and error answers, against a running core. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpEndpointsTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static JsonElement json(final HttpResponse<byte[]> response)
    {
        return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8));
    }

    private static void assertError(final HttpResponse<byte[]> response, final int status, final String fragment)
    {
        assertEquals(status, response.statusCode(), () -> new String(response.body(), StandardCharsets.UTF_8));
        final String error = json(response).getAsJsonObject().get("error").getAsString();
        assertTrue(error.contains(fragment), error);
        assertEquals("application/json", response.headers().firstValue("content-type").orElse(""));
    }

    @Test
    void healthAnswersWithStatusAndNoBody()
    {
        for (final String path : new String[] {"/v2/health/live", "/v2/health/ready"})
        {
            final HttpResponse<byte[]> response = server.get(path);
            assertEquals(200, response.statusCode());
            assertEquals(0, response.body().length);
        }
    }

    @Test
    void serverMetadataListsOnlyImplementedExtensions()
    {
        final HttpResponse<byte[]> response = server.get("/v2");
        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        final JsonObject metadata = json(response).getAsJsonObject();
        assertEquals("ingot", metadata.get("name").getAsString());
        assertFalse(metadata.get("version").getAsString().isEmpty());
        final List<String> extensions = new ArrayList<>();
        metadata.getAsJsonArray("extensions").forEach(e -> extensions.add(e.getAsString()));
        assertEquals(ServerExtensions.SUPPORTED, extensions);
        assertTrue(extensions.contains("statistics") && extensions.contains("binary_tensor_data"));
        assertTrue(extensions.contains("parameters") && extensions.contains("model_repository(unload_dependents)"),
            "the extensions Ingot implements since #29 and #31 are announced: " + extensions);
        assertFalse(extensions.contains("cuda_shared_memory"), "CUDA shared memory is not registered: " + extensions);
    }

    @Test
    void modelMetadataPrependsTheBatchDimension()
    {
        final JsonObject addSub = json(server.get("/v2/models/add_sub")).getAsJsonObject();
        assertEquals("add_sub", addSub.get("name").getAsString());
        assertEquals("1", addSub.getAsJsonArray("versions").get(0).getAsString());
        assertEquals("add_sub", addSub.get("platform").getAsString());
        final JsonObject input = addSub.getAsJsonArray("inputs").get(0).getAsJsonObject();
        assertEquals("INPUT0", input.get("name").getAsString());
        assertEquals("FP32", input.get("datatype").getAsString());
        assertEquals("[-1,16]", input.getAsJsonArray("shape").toString());
        assertEquals(2, addSub.getAsJsonArray("outputs").size());

        final JsonObject plain = json(server.get("/v2/models/add_sub_int/versions/1")).getAsJsonObject();
        assertEquals("[4]", plain.getAsJsonArray("inputs").get(0).getAsJsonObject().getAsJsonArray("shape")
            .toString());

        assertError(server.get("/v2/models/nope"), 400, "Request for unknown model: 'nope' is not found");
        assertError(server.get("/v2/models/add_sub/versions/9"), 404, "version 9");
    }

    @Test
    void modelReadyIsStatusOnly()
    {
        final HttpResponse<byte[]> ready = server.get("/v2/models/add_sub/ready");
        assertEquals(200, ready.statusCode());
        assertEquals(0, ready.body().length);
        assertEquals(200, server.get("/v2/models/add_sub/versions/1/ready").statusCode());
        assertError(server.get("/v2/models/nope/ready"), 400, "unknown model");
        assertError(server.get("/v2/models/add_sub/versions/2/ready"), 404, "version 2");
    }

    @Test
    void modelConfigIsTritonsJson()
    {
        final HttpResponse<byte[]> response = server.get("/v2/models/add_sub/config");
        assertEquals(200, response.statusCode());
        final JsonObject config = json(response).getAsJsonObject();
        assertEquals("add_sub", config.get("name").getAsString());
        assertEquals(8, config.get("max_batch_size").getAsInt());
        final JsonObject input = config.getAsJsonArray("input").get(0).getAsJsonObject();
        assertEquals("TYPE_FP32", input.get("data_type").getAsString());
        assertTrue(input.getAsJsonArray("dims").get(0).getAsJsonPrimitive().isNumber());
        final JsonObject batching = config.getAsJsonObject("dynamic_batching");
        assertEquals(2000, batching.get("max_queue_delay_microseconds").getAsJsonPrimitive().getAsLong());
        assertTrue(batching.get("max_queue_delay_microseconds").getAsJsonPrimitive().isNumber());
        assertEquals("[4,8]", batching.getAsJsonArray("preferred_batch_size").toString());
        assertFalse(config.has("sequence_batching"));

        final JsonObject plain = json(server.get("/v2/models/add_sub_int/config")).getAsJsonObject();
        assertEquals(0, plain.get("max_batch_size").getAsInt());
        assertFalse(plain.has("dynamic_batching"), plain.toString());
        assertError(server.get("/v2/models/nope/config"), 400, "unknown model");
    }

    @Test
    void statisticsCoverOneOrEveryModel()
    {
        final JsonArray all = json(server.get("/v2/models/stats")).getAsJsonObject().getAsJsonArray("model_stats");
        assertTrue(all.size() >= 6, all.toString());
        final JsonObject one = json(server.get("/v2/models/add_sub/versions/1/stats")).getAsJsonObject()
            .getAsJsonArray("model_stats").get(0).getAsJsonObject();
        assertEquals("add_sub", one.get("name").getAsString());
        assertEquals("1", one.get("version").getAsString());
        for (final String key : new String[] {"success", "fail", "queue", "compute_input", "compute_infer",
            "compute_output", "cache_hit", "cache_miss"})
        {
            assertTrue(one.getAsJsonObject("inference_stats").getAsJsonObject(key).get("ns").getAsJsonPrimitive()
                .isNumber(), key);
        }
        assertEquals(1, json(server.get("/v2/models/add_sub/stats")).getAsJsonObject().getAsJsonArray("model_stats")
            .size());
        assertError(server.get("/v2/models/nope/stats"), 400, "unknown model");
        assertError(server.get("/v2/models/add_sub/versions/3/stats"), 404, "version 3");
    }

    @Test
    void repositoryIndexUnloadAndLoad()
    {
        final JsonArray index = json(server.post("/v2/repository/index", "")).getAsJsonArray();
        boolean found = false;
        for (final JsonElement entry : index)
        {
            final JsonObject row = entry.getAsJsonObject();
            if (row.get("name").getAsString().equals("identity_fp16"))
            {
                found = true;
                assertEquals("1", row.get("version").getAsString());
                assertEquals("READY", row.get("state").getAsString());
                assertFalse(row.has("reason"));
            }
        }
        assertTrue(found, index.toString());
        assertEquals(200, server.post("/v2/repository/index", "{\"ready\":true}").statusCode());

        final HttpResponse<byte[]> unload = server.post("/v2/repository/models/identity_fp16/unload",
            "{\"parameters\":{\"unload_dependents\":false}}");
        assertEquals(200, unload.statusCode(), () -> new String(unload.body(), StandardCharsets.UTF_8));
        assertError(server.get("/v2/models/identity_fp16/ready"), 400, "Model version not ready");
        final HttpResponse<byte[]> load = server.post("/v2/repository/models/identity_fp16/load", "");
        assertEquals(200, load.statusCode(), () -> new String(load.body(), StandardCharsets.UTF_8));
        assertEquals(200, server.get("/v2/models/identity_fp16/ready").statusCode());

        assertError(server.post("/v2/repository/models/identity_fp16/load",
            "{\"parameters\":{\"config\":\"{}\"}}"), 500,
            "failed to load 'identity_fp16', failed to poll from model repository: ");
        assertEquals(200, server.get("/v2/models/identity_fp16/ready").statusCode(),
            "a failed reload keeps the loaded model serving");
        assertError(server.post("/v2/repository/models/nope/load", ""), 500,
            "failed to load 'nope', failed to poll from model repository");
        assertError(server.post("/v2/repository/models/add_sub/load", "{bad"), 400, "failed to parse");
    }

    @Test
    void systemSharedMemoryRegisterStatusUnregister()
    {
        try (ShmObject object = new ShmObject(1024))
        {
            final HttpResponse<byte[]> register = server.post("/v2/systemsharedmemory/region/endpoints_r/register",
                "{\"key\":\"" + object.key() + "\",\"offset\":0,\"byte_size\":512}");
            assertEquals(200, register.statusCode(), () -> new String(register.body(), StandardCharsets.UTF_8));
            final JsonObject status = json(server.get("/v2/systemsharedmemory/region/endpoints_r/status"))
                .getAsJsonArray().get(0).getAsJsonObject();
            assertEquals("endpoints_r", status.get("name").getAsString());
            assertEquals(object.key(), status.get("key").getAsString());
            assertEquals(0, status.get("offset").getAsLong());
            assertEquals(512, status.get("byte_size").getAsLong());
            assertTrue(json(server.get("/v2/systemsharedmemory/status")).getAsJsonArray().size() >= 1);

            assertError(server.post("/v2/systemsharedmemory/region/endpoints_r/register",
                "{\"key\":\"" + object.key() + "\",\"byte_size\":16}"), 400, "already");
            assertError(server.post("/v2/systemsharedmemory/region/other/register",
                "{\"key\":\"" + object.key() + "\",\"offset\":1000,\"byte_size\":512}"), 400, "invalid args");
            assertError(server.post("/v2/systemsharedmemory/region/other/register", "{\"byte_size\":16}"), 400,
                "'key'");

            assertEquals(200, server.post("/v2/systemsharedmemory/region/endpoints_r/unregister", "").statusCode());
            assertError(server.get("/v2/systemsharedmemory/region/endpoints_r/status"), 404, "endpoints_r");
            assertEquals(200, server.post("/v2/systemsharedmemory/unregister", "").statusCode());
        }
    }

    @Test
    void unsupportedExtensionsAreClear()
    {
        assertEquals("[]", json(server.get("/v2/cudasharedmemory/status")).toString());
        assertError(server.post("/v2/cudasharedmemory/region/g/register", "{}"), 501, "CUDA shared memory");
    }

    @Test
    void unknownPathsAndMethods()
    {
        assertError(server.get("/v2/nothing"), 404, "Not Found");
        assertError(server.get("/v3"), 404, "Not Found");
        assertError(server.get("/v2/models/add_sub/infer"), 405, "Method Not Allowed");
        assertError(server.post("/v2/health/live", ""), 405, "Method Not Allowed");
    }
}
