package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code ingot.batching} and its parameters, read and refused through the validator, as a repository load does. */
class BatchingParametersTest
{
    private static final String MODEL = "backend: \"onnxruntime\" max_batch_size: 8"
        + " input [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 4 ] } ]"
        + " output [ { name: \"OUT\" data_type: TYPE_FP32 dims: [ 4 ] } ] ";

    private static String parameter(final String key, final String value)
    {
        return " parameters { key: \"" + key + "\" value { string_value: \"" + value + "\" } } ";
    }

    private static ModelConfig validated(final String pbtxt) throws ConfigException
    {
        final ModelConfig completed = ServerAutoCompleter.complete(ModelConfigParser.parse(MODEL + pbtxt, "v"), "m",
            null);
        final ModelConfig config = ConfigNormalizer.normalize(completed, "m", NormalizeContext.cpuOnly());
        ConfigValidator.validate(config, NormalizeContext.cpuOnly());
        return config;
    }

    private static String failure(final String pbtxt)
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> validated(pbtxt));
        assertEquals(ConfigException.Category.INVALID_ARG, e.category());
        return e.reason();
    }

    private static final String ADAPTIVE = parameter("ingot.batching", "adaptive");

    @Test
    void readsTheAdaptiveChoiceWithItsDefaultPercentile() throws ConfigException
    {
        final BatchingParameters chosen = BatchingParameters.of(validated("dynamic_batching { }" + ADAPTIVE
            + parameter("ingot.latency_slo_us", "10000")));
        assertEquals(BatchingParameters.Kind.ADAPTIVE, chosen.kind());
        assertEquals(10_000, chosen.sloMicros());
        assertEquals(99.0, chosen.percentile());
        assertEquals("SLO 10000us at p99", chosen.settingsText());
    }

    @Test
    void readsTheAimdChoiceWithItsSteps() throws ConfigException
    {
        final BatchingParameters chosen = BatchingParameters.of(validated("dynamic_batching { }"
            + parameter("ingot.batching", "aimd") + parameter("ingot.latency_slo_us", "5000")
            + parameter("ingot.aimd_increase", "2") + parameter("ingot.aimd_decrease", "0.5")));
        assertEquals(BatchingParameters.Kind.AIMD, chosen.kind());
        assertEquals(2, chosen.aimdIncrease());
        assertEquals(0.5, chosen.aimdDecrease());
        assertEquals("SLO 5000us, +2 x0.5", chosen.settingsText());
    }

    @Test
    void withoutTheParameterTheModelBatchesAsTritonWould() throws ConfigException
    {
        assertEquals(BatchingParameters.Kind.STATIC, BatchingParameters.of(validated("dynamic_batching { }")).kind());
        assertEquals(BatchingParameters.Kind.STATIC, BatchingParameters.of(validated("dynamic_batching { }"
            + parameter("ingot.batching", "static"))).kind());
    }

    @Test
    void refusesAnSloThatIsZeroNegativeOrNotANumber()
    {
        for (final String bad : new String[] {"0", "-5", "ten", "1.5", ""})
        {
            assertEquals("model 'm': parameter 'ingot.latency_slo_us' must be a positive whole number of microseconds,"
                + " got '" + bad + "'", failure("dynamic_batching { }" + ADAPTIVE
                + parameter("ingot.latency_slo_us", bad)), bad);
        }
        assertEquals("model 'm': parameter 'ingot.latency_slo_us' is required with 'ingot.batching' adaptive: the"
            + " latency objective in microseconds", failure("dynamic_batching { }" + ADAPTIVE));
    }

    @Test
    void refusesAPercentileOutsideZeroToHundred()
    {
        for (final String bad : new String[] {"0", "100", "-1", "150", "NaN", "p99"})
        {
            assertEquals("model 'm': parameter 'ingot.slo_percentile' must be a number between 0 and 100, exclusive"
                + " (99 for p99), got '" + bad + "'", failure("dynamic_batching { }" + ADAPTIVE
                + parameter("ingot.latency_slo_us", "10000") + parameter("ingot.slo_percentile", bad)), bad);
        }
    }

    @Test
    void refusesAnAdaptivePolicyWithoutDynamicBatching()
    {
        assertEquals("model 'm': parameter 'ingot.batching' is 'adaptive', which forms batches in the dynamic"
            + " batcher's place, but the model has no dynamic_batching: add 'dynamic_batching { }' (its priority"
            + " levels and queue policies apply) or remove the parameter",
            failure(ADAPTIVE + parameter("ingot.latency_slo_us", "10000")));
    }

    @Test
    void refusesAnUnknownPolicyAndParametersThatWouldHaveNoEffect()
    {
        assertEquals("model 'm': parameter 'ingot.batching' must be 'static', 'adaptive' or 'aimd', got 'smart'",
            failure("dynamic_batching { }" + parameter("ingot.batching", "smart")));
        assertEquals("model 'm': parameter 'ingot.latency_slo_us' applies only with parameter 'ingot.batching' set to"
            + " 'adaptive' or 'aimd'; set it, or remove 'ingot.latency_slo_us'",
            failure("dynamic_batching { }" + parameter("ingot.latency_slo_us", "10000")));
        assertEquals("model 'm': parameter 'ingot.aimd_decrease' applies only with parameter 'ingot.batching' set to"
            + " 'aimd'; set it, or remove 'ingot.aimd_decrease'", failure("dynamic_batching { }" + ADAPTIVE
            + parameter("ingot.latency_slo_us", "10000") + parameter("ingot.aimd_decrease", "0.5")));
        assertEquals("model 'm': parameter 'ingot.aimd_decrease' must be a number between 0 and 1, exclusive (0.9"
            + " cuts by 10%), got '1'", failure("dynamic_batching { }" + parameter("ingot.batching", "aimd")
            + parameter("ingot.latency_slo_us", "10000") + parameter("ingot.aimd_decrease", "1")));
    }
}
