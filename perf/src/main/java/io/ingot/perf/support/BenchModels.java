package io.ingot.perf.support;

import io.ingot.config.ConfigException;
import io.ingot.config.ConfigNormalizer;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;

/**
 * The model configurations the microbenchmarks load in memory, as {@code config.pbtxt} text, normalized as the core
 * normalizes them (so that scheduler and instance pieces built directly see what a loaded model would).
 */
public final class BenchModels
{
    private BenchModels()
    {
    }

    /**
     * Triton's no-model benchmark model ({@code qa/L0_perf_nomodel}): the identity backend, one variable-length input.
     *
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param instances    CPU instances
     * @return the configuration
     */
    public static ModelConfig identity(final int maxBatchSize, final int instances)
    {
        return parse("""
            name: "identity"
            backend: "identity"
            max_batch_size: %d
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            dynamic_batching { }
            instance_group [ { count: %d kind: KIND_CPU } ]
            """.formatted(maxBatchSize, instances));
    }

    /**
     * A model of one UINT8 input, for batch assembly (its engine is supplied by the benchmark).
     *
     * @param maxBatchSize the model's {@code max_batch_size}
     * @return the configuration
     */
    public static ModelConfig bytes(final int maxBatchSize)
    {
        return parse("""
            name: "bytes"
            backend: "identity"
            max_batch_size: %d
            input [ { name: "INPUT0" data_type: TYPE_UINT8 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_UINT8 dims: [ -1 ] } ]
            dynamic_batching { }
            instance_group [ { count: 1 kind: KIND_CPU } ]
            """.formatted(maxBatchSize));
    }

    private static ModelConfig parse(final String text)
    {
        try
        {
            return ConfigNormalizer.normalize(ModelConfigParser.parse(text, "benchmark model"),
                NormalizeContext.cpuOnly());
        }
        catch (final ConfigException ex)
        {
            throw new IllegalStateException("benchmark model configuration is invalid: " + ex.getMessage(), ex);
        }
    }
}
