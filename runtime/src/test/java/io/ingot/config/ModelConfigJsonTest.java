package io.ingot.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.api.ModelConfigJson;
import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;

class ModelConfigJsonTest
{
    private static JsonObject render(final String pbtxt) throws ConfigException
    {
        return JsonParser.parseString(ModelConfigJson.toJson(ModelConfigParser.parse(pbtxt, "json-test")))
            .getAsJsonObject();
    }

    @Test
    void sixtyFourBitIntegersAreNumbersNotStrings() throws ConfigException
    {
        final JsonObject json = render("""
            name: "m"
            max_batch_size: 8
            version_policy { specific { versions: [ 2, 5 ] } }
            input [ { name: "A" data_type: TYPE_FP32 dims: [ -1, 3 ] reshape { shape: [ 3, -1 ] } } ]
            dynamic_batching {
              max_queue_delay_microseconds: 18446744073709551615
              priority_levels: 2
              default_priority_level: 1
              default_queue_policy { default_timeout_microseconds: 100 }
              priority_queue_policy { key: 2 value { default_timeout_microseconds: 300 max_queue_size: 7 } }
            }
            """);

        final JsonObject input = json.getAsJsonArray("input").get(0).getAsJsonObject();
        assertTrue(input.getAsJsonArray("dims").get(0).getAsJsonPrimitive().isNumber());
        assertEquals(-1, input.getAsJsonArray("dims").get(0).getAsLong());
        assertEquals(3, input.getAsJsonObject("reshape").getAsJsonArray("shape").get(0).getAsLong());
        assertTrue(json.getAsJsonObject("version_policy").getAsJsonObject("specific").getAsJsonArray("versions")
            .get(1).getAsJsonPrimitive().isNumber());

        final JsonObject batching = json.getAsJsonObject("dynamic_batching");
        assertTrue(batching.get("max_queue_delay_microseconds").getAsJsonPrimitive().isNumber());
        assertEquals("18446744073709551615", batching.get("max_queue_delay_microseconds").getAsBigInteger()
            .toString(), "unsigned 64-bit values keep their full range");
        assertTrue(batching.get("priority_levels").getAsJsonPrimitive().isNumber());
        assertEquals(1, batching.get("default_priority_level").getAsLong());
        assertEquals(100, batching.getAsJsonObject("default_queue_policy").get("default_timeout_microseconds")
            .getAsJsonPrimitive().getAsLong());
        assertTrue(batching.getAsJsonObject("default_queue_policy").get("default_timeout_microseconds")
            .getAsJsonPrimitive().isNumber());

        final JsonObject levels = batching.getAsJsonObject("priority_queue_policy");
        assertTrue(levels.has("2"), "map keys stay strings");
        assertTrue(levels.getAsJsonObject("2").get("default_timeout_microseconds").getAsJsonPrimitive().isNumber());
        assertEquals(7, levels.getAsJsonObject("2").get("max_queue_size").getAsInt());
    }

    @Test
    void defaultValuedFieldsArePrintedWithProtoNames() throws ConfigException
    {
        final JsonObject json = render("name: \"m\" input [ { name: \"A\" data_type: TYPE_FP32 dims: [ 1 ] } ]");

        assertEquals(0, json.get("max_batch_size").getAsInt());
        assertEquals("", json.get("platform").getAsString());
        assertEquals(0, json.getAsJsonArray("output").size());
        assertEquals(0, json.getAsJsonObject("metric_tags").size());
        final JsonObject input = json.getAsJsonArray("input").get(0).getAsJsonObject();
        assertEquals("FORMAT_NONE", input.get("format").getAsString());
        assertEquals(false, input.get("allow_ragged_batch").getAsBoolean());
        assertEquals("TYPE_FP32", input.get("data_type").getAsString());
    }

    @Test
    void normalizedConfigRendersNestedSequenceAndEnsembleInt64s() throws ConfigException
    {
        final JsonObject json = render("""
            name: "s"
            sequence_batching {
              max_sequence_idle_microseconds: 1000000
              direct { max_queue_delay_microseconds: 50 }
              state [ { input_name: "I" output_name: "O" data_type: TYPE_FP32 dims: [ 4 ]
                        initial_state [ { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true name: "z" } ] } ]
            }
            model_warmup [ { name: "w" batch_size: 1
                inputs { key: "I" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]
            """);

        final JsonObject sequence = json.getAsJsonObject("sequence_batching");
        assertTrue(sequence.get("max_sequence_idle_microseconds").getAsJsonPrimitive().isNumber());
        assertTrue(sequence.getAsJsonObject("direct").get("max_queue_delay_microseconds").getAsJsonPrimitive()
            .isNumber());
        final JsonObject state = sequence.getAsJsonArray("state").get(0).getAsJsonObject();
        assertTrue(state.getAsJsonArray("dims").get(0).getAsJsonPrimitive().isNumber());
        assertTrue(state.getAsJsonArray("initial_state").get(0).getAsJsonObject().getAsJsonArray("dims").get(0)
            .getAsJsonPrimitive().isNumber());
        assertTrue(json.getAsJsonArray("model_warmup").get(0).getAsJsonObject().getAsJsonObject("inputs")
            .getAsJsonObject("I").getAsJsonArray("dims").get(0).getAsJsonPrimitive().isNumber());
    }

    @Test
    void emptyConfigRendersAsEmptyText()
    {
        assertEquals("", ModelConfigJson.toJson(ModelConfig.getDefaultInstance()));
    }

    @Test
    void outputIsCompactJson() throws ConfigException
    {
        final String json = ModelConfigJson.toJson(ModelConfigParser.parse("name: \"m\" max_batch_size: 2", "j"));
        assertTrue(json.startsWith("{\"name\":\"m\""), json);
        assertTrue(!json.contains("\n"), json);
    }
}
