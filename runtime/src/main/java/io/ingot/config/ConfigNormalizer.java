package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelOptimizationPolicy;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelVersionPolicy;

/**
 * Triton's always-applied normalization ({@code NormalizeModelConfig} and {@code NormalizeInstanceGroup}), applied
 * whether or not auto-complete is enabled:
 * <ul>
 *   <li>{@code name} defaults to the model name (the directory name); a different one is an error;</li>
 *   <li>{@code version_policy} defaults to {@code latest { num_versions: 1 }};</li>
 *   <li>empty {@code dynamic_batching.preferred_batch_size} (and {@code sequence_batching.oldest}'s) becomes
 *       {@code [max_batch_size]} when {@code max_batch_size > 0};</li>
 *   <li>{@code sequence_batching.max_sequence_idle_microseconds} 0 becomes 1,000,000 (1 s);</li>
 *   <li>{@code optimization.input_pinned_memory} and {@code output_pinned_memory} default to enabled (not for
 *       ensembles);</li>
 *   <li>instance groups (not for ensembles): one group named {@code <model>} when none is given; each unnamed group
 *       is named {@code <model>_<index>}; {@code KIND_AUTO} becomes {@code KIND_GPU} when GPUs exist and every
 *       listed id is one of them, else {@code KIND_CPU}; a {@code count} below 1 becomes 1 (2 for {@code KIND_CPU}
 *       with backend {@code onnxruntime} or {@code tensorflow}); a GPU group without {@code gpus} gets every GPU.</li>
 * </ul>
 * Normalization does not validate; run {@link ConfigValidator} on its result.
 */
public final class ConfigNormalizer
{
    /** Triton's default for {@code max_sequence_idle_microseconds}. */
    public static final long SEQUENCE_IDLE_DEFAULT_MICROSECONDS = 1_000_000L;

    /** Triton's default instance count for CPU groups of backends that opt into it. */
    private static final int DEFAULT_CPU_INSTANCE_COUNT = 2;

    private ConfigNormalizer()
    {
    }

    /**
     * Normalizes a configuration whose {@code name} is already set.
     *
     * @param config  the configuration (after auto-complete)
     * @param context the machine's GPUs
     * @return the normalized configuration
     * @throws ConfigException INVALID_ARG when {@code name} is empty
     */
    public static ModelConfig normalize(final ModelConfig config, final NormalizeContext context)
        throws ConfigException
    {
        if (config.getName().isEmpty())
        {
            throw ConfigException.invalid("model configuration must specify 'name'");
        }
        return normalize(config, config.getName(), context);
    }

    /**
     * Normalizes a configuration for the model called {@code modelName}.
     *
     * @param config    the configuration (after auto-complete)
     * @param modelName the model's name (its directory name); {@code name} is set to it when empty
     * @param context   the machine's GPUs
     * @return the normalized configuration
     * @throws ConfigException INVALID_ARG when {@code name} is set and differs from {@code modelName}
     */
    public static ModelConfig normalize(final ModelConfig config, final String modelName,
        final NormalizeContext context) throws ConfigException
    {
        if (modelName == null || modelName.isEmpty())
        {
            throw ConfigException.invalid("a model name is needed to normalize a model configuration");
        }
        final ModelConfig.Builder builder = config.toBuilder();
        if (builder.getName().isEmpty())
        {
            builder.setName(modelName);
        }
        else if (!builder.getName().equals(modelName))
        {
            throw ConfigException.invalid("model configuration name '" + builder.getName()
                + "' does not match the model name '" + modelName + "'");
        }
        if (!builder.hasVersionPolicy())
        {
            builder.setVersionPolicy(ModelVersionPolicy.newBuilder()
                .setLatest(ModelVersionPolicy.Latest.newBuilder().setNumVersions(1)));
        }
        if (builder.hasDynamicBatching())
        {
            normalizeDynamicBatching(builder);
        }
        if (builder.hasSequenceBatching())
        {
            normalizeSequenceBatching(builder);
        }
        if (!builder.hasEnsembleScheduling())
        {
            normalizePinnedMemory(builder.getOptimizationBuilder());
            normalizeInstanceGroups(builder, context);
        }
        return builder.build();
    }

    private static void normalizeDynamicBatching(final ModelConfig.Builder builder)
    {
        final ModelDynamicBatching.Builder batching = builder.getDynamicBatchingBuilder();
        if (batching.getPreferredBatchSizeCount() == 0 && builder.getMaxBatchSize() > 0)
        {
            batching.addPreferredBatchSize(builder.getMaxBatchSize());
        }
    }

    private static void normalizeSequenceBatching(final ModelConfig.Builder builder)
    {
        final ModelSequenceBatching.Builder batching = builder.getSequenceBatchingBuilder();
        if (batching.getMaxSequenceIdleMicroseconds() == 0)
        {
            batching.setMaxSequenceIdleMicroseconds(SEQUENCE_IDLE_DEFAULT_MICROSECONDS);
        }
        if (batching.hasOldest() && batching.getOldest().getPreferredBatchSizeCount() == 0
            && builder.getMaxBatchSize() > 0)
        {
            batching.getOldestBuilder().addPreferredBatchSize(builder.getMaxBatchSize());
        }
    }

    private static void normalizePinnedMemory(final ModelOptimizationPolicy.Builder optimization)
    {
        if (!optimization.hasInputPinnedMemory())
        {
            optimization.getInputPinnedMemoryBuilder().setEnable(true);
        }
        if (!optimization.hasOutputPinnedMemory())
        {
            optimization.getOutputPinnedMemoryBuilder().setEnable(true);
        }
    }

    private static void normalizeInstanceGroups(final ModelConfig.Builder builder, final NormalizeContext context)
    {
        if (builder.getInstanceGroupCount() == 0)
        {
            builder.addInstanceGroupBuilder().setName(builder.getName());
        }
        for (int i = 0; i < builder.getInstanceGroupCount(); i++)
        {
            final ModelInstanceGroup.Builder group = builder.getInstanceGroupBuilder(i);
            if (group.getName().isEmpty())
            {
                group.setName(builder.getName() + "_" + i);
            }
            if (group.getKind() == ModelInstanceGroup.Kind.KIND_AUTO)
            {
                final boolean everyGpuPresent = group.getGpusList().stream().allMatch(context::hasGpu);
                group.setKind(context.hasGpus() && everyGpuPresent
                    ? ModelInstanceGroup.Kind.KIND_GPU : ModelInstanceGroup.Kind.KIND_CPU);
            }
            if (group.getCount() < 1)
            {
                group.setCount(defaultCount(group.getKind(), builder.getBackend()));
            }
            if (group.getKind() == ModelInstanceGroup.Kind.KIND_GPU && group.getGpusCount() == 0)
            {
                group.addAllGpus(context.gpuIds());
            }
        }
    }

    private static int defaultCount(final ModelInstanceGroup.Kind kind, final String backend)
    {
        final boolean backendOptsIn = Platforms.ONNXRUNTIME.equals(backend) || Platforms.TENSORFLOW.equals(backend);
        return kind == ModelInstanceGroup.Kind.KIND_CPU && backendOptsIn ? DEFAULT_CPU_INSTANCE_COUNT : 1;
    }
}
