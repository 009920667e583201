package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;

/**
 * The integer fields whose whole range Triton's schema allows but Ingot cannot hold, each refused at load with the
 * range Ingot accepts. Every other integer field is either bounded by Triton's own validation or behaves as in
 * Triton for any value (unsigned {@code uint32}/{@code uint64} fields are read unsigned; durations beyond about 292
 * years saturate), which {@code IntegerFieldExtremesTest} checks field by field.
 *
 * <ul>
 *   <li>{@code max_batch_size} at most {@value #MAX_BATCH_SIZE}: statistics keep counters per batch size and every
 *       instance a slot per request of a batch, both sized by it when the model loads;</li>
 *   <li>{@code sequence_batching.oldest.max_candidate_sequences} at most {@value #MAX_CANDIDATE_SEQUENCES}: each
 *       instance keeps a slot object per candidate sequence, made when the model loads;</li>
 *   <li>at most {@value #MAX_INSTANCES} instances per model version ({@code count} times the GPUs of each group,
 *       summed): each instance has a thread of its own.</li>
 * </ul>
 */
final class ImplementationLimits
{
    /** The largest {@code max_batch_size} Ingot accepts (Triton: {@code int32}, any non-negative value). */
    static final int MAX_BATCH_SIZE = 1 << 16;

    /** The largest {@code oldest.max_candidate_sequences} Ingot accepts (Triton: {@code int32}). */
    static final int MAX_CANDIDATE_SEQUENCES = 1 << 16;

    /** The most instances one model version may have. */
    static final int MAX_INSTANCES = 1024;

    private ImplementationLimits()
    {
    }

    /**
     * @param config a normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the field and the range Ingot accepts
     */
    static void checkModel(final ModelConfig config) throws ConfigException
    {
        if (config.getMaxBatchSize() > MAX_BATCH_SIZE)
        {
            throw ConfigException.invalid("'max_batch_size' must be at most " + MAX_BATCH_SIZE + " for "
                + config.getName() + ", got " + config.getMaxBatchSize() + " (Ingot sizes per-batch-size statistics"
                + " and each instance's batch slots by it)");
        }
        final int candidates = config.getSequenceBatching().getOldest().getMaxCandidateSequences();
        if (candidates > MAX_CANDIDATE_SEQUENCES)
        {
            throw ConfigException.invalid("'max_candidate_sequences' of the sequence batcher's oldest strategy must "
                + "be at most " + MAX_CANDIDATE_SEQUENCES + " for " + config.getName() + ", got " + candidates
                + " (Ingot keeps a slot per candidate sequence in each instance)");
        }
    }

    /**
     * @param config a normalized configuration whose groups have a {@code count} of at least 1
     * @throws ConfigException INVALID_ARG naming the model, the group and the number of instances Ingot runs
     */
    static void checkInstances(final ModelConfig config) throws ConfigException
    {
        long instances = 0;
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            instances += (long) group.getCount() * Math.max(1, group.getGpusCount());
            if (instances > MAX_INSTANCES)
            {
                throw ConfigException.invalid("instance group " + group.getName() + " of model " + config.getName()
                    + " has 'count' " + group.getCount() + ": a model version may have at most " + MAX_INSTANCES
                    + " instances in Ingot (each runs a thread of its own), and the groups' 'count' (times their"
                    + " GPUs) add up to " + instances + " or more");
            }
        }
    }
}
