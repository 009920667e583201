package io.ingot.server.json;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigJsonTest
{
    @Test
    void rendersAsTritonsConfigEndpoint()
    {
        final ModelConfig config = ModelConfig.newBuilder().setName("add_sub").setBackend("add_sub")
            .setMaxBatchSize(8)
            .addInput(ModelInput.newBuilder().setName("INPUT0").setDataType(DataType.TYPE_FP32).addDims(16))
            .setDynamicBatching(ModelDynamicBatching.newBuilder().addPreferredBatchSize(4).addPreferredBatchSize(8)
                .setMaxQueueDelayMicroseconds(2000))
            .build();
        final JsonObject json = JsonParser.parseString(ConfigJson.toJson(config)).getAsJsonObject();
        assertEquals(8, json.get("max_batch_size").getAsInt());
        final JsonObject input = json.getAsJsonArray("input").get(0).getAsJsonObject();
        assertEquals("TYPE_FP32", input.get("data_type").getAsString());
        assertTrue(input.getAsJsonArray("dims").get(0).getAsJsonPrimitive().isNumber(), input.toString());
        final JsonObject batching = json.getAsJsonObject("dynamic_batching");
        assertTrue(batching.get("max_queue_delay_microseconds").getAsJsonPrimitive().isNumber(), batching.toString());
        assertEquals(2000, batching.get("max_queue_delay_microseconds").getAsLong());
        assertFalse(json.has("sequence_batching"));
        // Fields without presence are printed even at their default.
        assertEquals("", json.get("platform").getAsString());

        final JsonObject plain = JsonParser.parseString(ConfigJson.toJson(ModelConfig.newBuilder().setName("m")
            .build())).getAsJsonObject();
        assertEquals(0, plain.get("max_batch_size").getAsInt());
        assertFalse(plain.has("dynamic_batching"));
    }
}
