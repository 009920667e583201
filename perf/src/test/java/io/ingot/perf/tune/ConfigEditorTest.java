package io.ingot.perf.tune;

import io.ingot.config.ModelConfigParser;
import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tuned config.pbtxt: only the changed fields rewritten, where they stand, and its unified diff. */
class ConfigEditorTest
{
    private static final String FILE = """
        # ResNet-50, as the example has it.
        name: "resnet50"
        platform: "onnxruntime_onnx"
        max_batch_size: 8
        input [
          { name: "input" data_type: TYPE_FP32 format: FORMAT_NCHW dims: [ 3, 224, 224 ] }
        ]
        output [
          { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] }
        ]
        dynamic_batching {
          preferred_batch_size: [ 4, 8 ]
          max_queue_delay_microseconds: 5000
        }
        instance_group [
          { count: 2 kind: KIND_CPU }
        ]
        parameters { key: "note" value { string_value: "kept {braces} # and a hash" } }
        """;

    @Test
    void rewritesOnlyTheChangedFieldsAndKeepsTheRest() throws Exception
    {
        final ModelConfig original = ModelConfigParser.parse(FILE, "test");
        final ModelConfig target = new Candidate(1, 8, true, List.of(), 1000, Map.of("ingot.batching", "adaptive"))
            .applyTo(original, original);
        final String edited = ConfigEditor.edit(FILE, original, target, "resnet50/config.pbtxt");
        assertEquals(target, ModelConfigParser.parse(edited, "edited"));
        assertTrue(edited.startsWith("# ResNet-50, as the example has it.\nname: \"resnet50\""), edited);
        assertEquals("""
            --- a/resnet50/config.pbtxt
            +++ b/resnet50/config.pbtxt
            @@ -9,10 +9,10 @@
               { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] }
             ]
             dynamic_batching {
            -  preferred_batch_size: [ 4, 8 ]
            -  max_queue_delay_microseconds: 5000
            +  max_queue_delay_microseconds: 1000
             }
             instance_group [
            -  { count: 2 kind: KIND_CPU }
            +  { count: 1 kind: KIND_CPU }
             ]
             parameters { key: "note" value { string_value: "kept {braces} # and a hash" } }
            +parameters { key: "ingot.batching" value { string_value: "adaptive" } }
            """, ConfigDiff.unified("resnet50/config.pbtxt", FILE, edited));
    }

    @Test
    void fieldsInsideBlocksStringsAndCommentsAreNotTopLevel()
    {
        final List<ConfigEditor.Field> fields = ConfigEditor.fields("""
            name: "a # not a comment" # max_batch_size: 3
            dynamic_batching { max_queue_delay_microseconds: 5 }, max_batch_size: 2;
            parameters < key: "k" value { string_value: "}" } >
            """);
        assertEquals(List.of("name", "dynamic_batching", "max_batch_size", "parameters"),
            fields.stream().map(ConfigEditor.Field::name).toList());
    }

    @Test
    void anUnchangedConfigurationIsAnEmptyDiff() throws Exception
    {
        final ModelConfig original = ModelConfigParser.parse(FILE, "test");
        assertEquals(FILE, ConfigEditor.edit(FILE, original, original, "f"));
        assertEquals("", ConfigDiff.unified("f", FILE, FILE));
    }

    @Test
    void addsFieldsTheFileDoesNotHave() throws Exception
    {
        final String bare = "name: \"m\"\nbackend: \"cost\"\nmax_batch_size: 4\n";
        final ModelConfig original = ModelConfigParser.parse(bare, "test");
        final ModelConfig target = new Candidate(2, 4, true, List.of(4), 500, Map.of()).applyTo(original,
            original);
        final String edited = ConfigEditor.edit(bare, original, target, "m/config.pbtxt");
        assertEquals(bare + """
            instance_group [
              { count: 2 kind: KIND_CPU }
            ]
            dynamic_batching {
              preferred_batch_size: 4
              max_queue_delay_microseconds: 500
            }
            """, edited);
    }
}
