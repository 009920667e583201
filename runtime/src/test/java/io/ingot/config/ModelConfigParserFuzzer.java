package io.ingot.config;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.FuzzReport;
import org.junit.jupiter.api.AfterAll;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jazzer on {@code config.pbtxt}: text is parsed, normalized and validated as the repository does it; a config is
 * either accepted or refused with a {@link ConfigException} that names the source and the reason. Anything else that
 * escapes (a runtime exception, a stack overflow on nesting) is a finding. The dictionary holds the schema's field
 * names, and the seeds ({@code ModelConfigParserFuzzerInputs/}) are configs of the examples and the tests, so that
 * mutations reach the normalizer and the validator within the CI budget.
 */
class ModelConfigParserFuzzer
{
    private static final FuzzReport REPORT = FuzzReport.start("config.pbtxt parser, normalizer, validator");

    @AfterAll
    static void report()
    {
        REPORT.print();
    }

    @FuzzTest(maxDuration = "10s")
    @DictionaryEntries({"name:", "platform:", "backend:", "max_batch_size:", "input", "output", "data_type:",
        "TYPE_FP32", "TYPE_STRING", "TYPE_INT64", "dims:", "reshape", "shape:", "dynamic_batching",
        "preferred_batch_size:", "max_queue_delay_microseconds:", "priority_levels:", "default_priority_level:",
        "priority_queue_policy", "default_queue_policy", "max_queue_size:", "timeout_action:", "REJECT", "DELAY",
        "instance_group", "kind:", "KIND_CPU", "KIND_GPU", "count:", "gpus:", "sequence_batching",
        "ensemble_scheduling", "step", "input_map", "output_map", "model_name:", "model_version:", "version_policy",
        "latest", "specific", "versions:", "num_versions:", "parameters", "key:", "value", "string_value:",
        "scheduling_policy", "priority", "default_priority:", "{", "}", "[", "]", ":", "-1", "\"", "#"})
    void configsAreAcceptedOrRefusedWithAReason(final byte[] input)
    {
        final String text = new String(input, StandardCharsets.UTF_8);
        boolean refused = true;
        try
        {
            final ModelConfig parsed = ModelConfigParser.parse(text, "fuzz/config.pbtxt");
            final ModelConfig normalized = ConfigNormalizer.normalize(parsed, parsed.getName().isEmpty() ? "fuzz"
                : parsed.getName(), NormalizeContext.cpuOnly());
            ConfigValidator.validate(normalized, NormalizeContext.cpuOnly());
            refused = false;
        }
        catch (final ConfigException expected)
        {
            assertTrue(expected.getMessage() != null && !expected.getMessage().isBlank(), "a refusal without a reason");
        }
        REPORT.tried(refused);
    }
}
