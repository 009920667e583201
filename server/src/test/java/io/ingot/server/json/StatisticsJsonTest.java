package io.ingot.server.json;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.server.testing.StatisticsSamples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatisticsJsonTest
{
    @Test
    void everyFieldPerfAnalyzerReadsIsANumberAndTheVersionAString()
    {
        final ByteBuf out = Unpooled.buffer();
        StatisticsJson.write(new JsonOutput(out), List.of(StatisticsSamples.sample()));
        final JsonObject model = JsonParser.parseString(out.toString(StandardCharsets.UTF_8)).getAsJsonObject()
            .getAsJsonArray("model_stats").get(0).getAsJsonObject();
        assertEquals("m", model.get("name").getAsString());
        assertTrue(model.get("version").getAsJsonPrimitive().isString());
        assertEquals(12, model.get("inference_count").getAsLong());
        assertEquals(4, model.get("execution_count").getAsLong());
        assertEquals(1_700_000_000_123L, model.get("last_inference").getAsLong());
        final JsonObject infer = model.getAsJsonObject("inference_stats");
        for (final String key : new String[] {"success", "fail", "queue", "compute_input", "compute_infer",
            "compute_output", "cache_hit", "cache_miss"})
        {
            final JsonObject duration = infer.getAsJsonObject(key);
            assertTrue(duration.get("count").getAsJsonPrimitive().isNumber(), key);
            assertTrue(duration.get("ns").getAsJsonPrimitive().isNumber(), key);
        }
        assertEquals(10, infer.getAsJsonObject("queue").get("count").getAsLong());
        assertEquals(500, infer.getAsJsonObject("compute_infer").get("ns").getAsLong());
        assertEquals(2, model.getAsJsonArray("batch_stats").size());
        assertEquals(4, model.getAsJsonArray("batch_stats").get(1).getAsJsonObject().get("batch_size").getAsLong());
        assertEquals(201, model.getAsJsonArray("batch_stats").get(1).getAsJsonObject()
            .getAsJsonObject("compute_infer").get("ns").getAsLong());
        assertTrue(model.getAsJsonObject("response_stats").isEmpty());
        assertTrue(model.getAsJsonArray("memory_usage").isEmpty());
    }
}
