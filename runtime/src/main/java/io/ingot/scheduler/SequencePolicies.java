package io.ingot.scheduler;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;

/** Makes the policy of a model with {@code sequence_batching}: Direct (the default) or Oldest. */
public final class SequencePolicies
{
    private SequencePolicies()
    {
    }

    /**
     * @param config a configuration with {@code sequence_batching}
     * @return the sequence slots of each instance: {@code max(1, max_batch_size)} rows under Direct, the
     *         {@code max_candidate_sequences} (or {@code max(1, max_batch_size)} when not positive) under Oldest
     */
    public static int slotsPerInstance(final ModelConfig config)
    {
        final int rows = Math.max(1, config.getMaxBatchSize());
        final ModelSequenceBatching batching = config.getSequenceBatching();
        return batching.hasOldest() && batching.getOldest().getMaxCandidateSequences() > 0
            ? batching.getOldest().getMaxCandidateSequences() : rows;
    }

    /**
     * @param config     a normalized, validated configuration with {@code sequence_batching}
     * @param instances  the number of instances the model runs
     * @param shapeRules the model's batching rules for shapes and optional inputs
     * @return the policy
     */
    public static BatchPolicy of(final ModelConfig config, final int instances, final SchedulerSettings shapeRules)
    {
        final SequenceSettings settings = SequenceSettings.of(config, instances);
        final boolean batchDimension = config.getMaxBatchSize() > 0;
        final ModelSequenceBatching batching = config.getSequenceBatching();
        if (!batching.hasOldest())
        {
            return new DirectSequencePolicy(settings, shapeRules, batchDimension);
        }
        final ModelSequenceBatching.StrategyOldest oldest = batching.getOldest();
        final int candidates = slotsPerInstance(config);
        final int[] preferred = oldest.getPreferredBatchSizeList().stream().mapToInt(Integer::intValue)
            .filter(size -> size > 0 && size <= settings.slotsPerInstance()).sorted().distinct().toArray();
        return new OldestSequencePolicy(settings, candidates, preferred,
            SchedulerSettings.microsToNanos(oldest.getMaxQueueDelayMicroseconds()), shapeRules, batchDimension);
    }
}
