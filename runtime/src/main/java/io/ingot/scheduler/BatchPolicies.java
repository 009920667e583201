package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.BatchingParameters;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;

/**
 * Triton's choice of a model's scheduler, as a {@link BatchPolicy}: the sequence batcher for a model with
 * {@code sequence_batching} ({@link SequencePolicies}), the default scheduler for a model without
 * {@code dynamic_batching}, else the dynamic batcher — Triton's ({@link DynamicBatchPolicy}) or, when the model's
 * {@code ingot.batching} parameters ask for one, the adaptive ({@link AdaptiveBatchPolicy}) or AIMD
 * ({@link AimdBatchPolicy}) policy; wrapped to number dispatched requests when the model preserves ordering
 * ({@link OrderedBatchPolicy}).
 */
public final class BatchPolicies
{
    private BatchPolicies()
    {
    }

    /**
     * @param config    a normalized, validated configuration
     * @param settings  its scheduling settings
     * @param admission its per-level queue limits (released by the policy as requests leave its queues)
     * @param instances the number of instances the model runs
     * @return the policy, a fresh one
     * @throws InferenceException INVALID_ARG when the {@code ingot.batching} parameters are refused (for a
     *                            configuration that bypassed the validator)
     */
    public static BatchPolicy of(final ModelConfig config, final SchedulerSettings settings,
        final LevelAdmission admission, final int instances)
    {
        final BatchPolicy chosen = chosen(config, settings, admission, instances);
        return settings.preserveOrdering() ? new OrderedBatchPolicy(chosen) : chosen;
    }

    private static BatchPolicy chosen(final ModelConfig config, final SchedulerSettings settings,
        final LevelAdmission admission, final int instances)
    {
        if (config.hasSequenceBatching())
        {
            return SequencePolicies.of(config, instances, settings);
        }
        if (!settings.dynamic())
        {
            return new DefaultSchedulingPolicy();
        }
        final boolean batchDimension = config.getMaxBatchSize() > 0;
        final BatchingParameters parameters = batchingOf(config);
        return switch (parameters.kind())
        {
            case STATIC -> new DynamicBatchPolicy(settings, batchDimension, admission);
            case ADAPTIVE -> new AdaptiveBatchPolicy(settings, batchDimension, admission, instances,
                SchedulerSettings.microsToNanos(parameters.sloMicros()), parameters.percentile());
            case AIMD -> new AimdBatchPolicy(settings, batchDimension, admission, instances,
                SchedulerSettings.microsToNanos(parameters.sloMicros()), parameters.aimdIncrease(),
                parameters.aimdDecrease());
        };
    }

    /** The {@code ingot.batching} parameters, checked again here for a configuration that bypassed the validator. */
    private static BatchingParameters batchingOf(final ModelConfig config)
    {
        try
        {
            return BatchingParameters.of(config);
        }
        catch (final ConfigException ex)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, ex.reason());
        }
    }
}
