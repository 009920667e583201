package io.ingot.server.flow;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The response cache as a Triton user sees it (server {@code docs/user_guide/response_cache.md},
 * {@code docs/protocol/extension_statistics.md}, {@code docs/user_guide/metrics.md}): repeated identical requests show
 * as {@code cache_hit} in {@code /v2/models/M/stats}, a changed input as a {@code cache_miss}, and the
 * {@code nv_cache_*_per_model} metrics appear for the cache-enabled model only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResponseCacheFlowTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private String infer(final int first)
    {
        final String body = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"INT32\",\"shape\":[4],\"data\":[" + first
            + ",2,3,4]},{\"name\":\"INPUT1\",\"datatype\":\"INT32\",\"shape\":[4],\"data\":[1,1,1,1]}]}";
        final HttpResponse<byte[]> response = server.post("/v2/models/add_sub_cached/infer", body);
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        return JsonParser.parseString(text).getAsJsonObject().getAsJsonArray("outputs").get(0).getAsJsonObject()
            .getAsJsonArray("data").toString();
    }

    @Test
    void repeatedRequestsAreCacheHitsInStatisticsAndMetrics() throws Exception
    {
        for (int i = 0; i < 4; i++)
        {
            assertEquals("[2,3,4,5]", infer(1));
        }
        assertEquals("[8,3,4,5]", infer(7));
        final JsonObject stats = JsonParser.parseString(new String(server.get("/v2/models/add_sub_cached/stats")
            .body(), StandardCharsets.UTF_8)).getAsJsonObject().getAsJsonArray("model_stats").get(0)
            .getAsJsonObject();
        final JsonObject inference = stats.getAsJsonObject("inference_stats");
        assertEquals(3, inference.getAsJsonObject("cache_hit").get("count").getAsLong());
        assertEquals(2, inference.getAsJsonObject("cache_miss").get("count").getAsLong());
        assertEquals(5, inference.getAsJsonObject("success").get("count").getAsLong());
        assertEquals(2, stats.get("execution_count").getAsLong());

        final String metrics = new String(server.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + server.frontends().metricsPort() + "/metrics")).GET().build()).body(), StandardCharsets.UTF_8);
        assertTrue(metrics.contains("nv_cache_num_hits_per_model{model=\"add_sub_cached\",version=\"1\"} 3"),
            metrics);
        assertTrue(metrics.contains("nv_cache_num_misses_per_model{model=\"add_sub_cached\",version=\"1\"} 2"),
            metrics);
        assertFalse(metrics.contains("nv_cache_num_hits_per_model{model=\"add_sub\""), "only cache-enabled models");
    }
}
