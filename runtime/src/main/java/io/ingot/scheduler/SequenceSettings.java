package io.ingot.scheduler;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;

/**
 * What the Direct sequence strategy needs of a model's configuration, in the units it computes with. Immutable.
 *
 * @param model              the model's name, for messages
 * @param instances          the model's instance count (each has its own slots)
 * @param slotsPerInstance   batch rows per instance: {@code max(1, max_batch_size)}
 * @param maxQueueDelayNs    {@code direct.max_queue_delay_microseconds}, in nanoseconds
 * @param minSlotUtilization {@code direct.minimum_slot_utilization}
 * @param maxIdleNs          {@code max_sequence_idle_microseconds} (normalized: 0 becomes 1 s), in nanoseconds
 */
public record SequenceSettings(String model, int instances, int slotsPerInstance, long maxQueueDelayNs,
    float minSlotUtilization, long maxIdleNs)
{
    private static final long DEFAULT_IDLE_US = 1_000_000L;

    /** Checks the ranges the policy relies on. */
    public SequenceSettings
    {
        if (instances < 1 || slotsPerInstance < 1)
        {
            throw new IllegalArgumentException("model '" + model + "': a sequence batcher needs at least one instance"
                + " and one slot per instance, got " + instances + " and " + slotsPerInstance);
        }
    }

    /**
     * @param config    a normalized configuration with {@code sequence_batching}
     * @param instances the number of instances the model runs
     * @return the settings
     */
    public static SequenceSettings of(final ModelConfig config, final int instances)
    {
        final ModelSequenceBatching batching = config.getSequenceBatching();
        final long idleUs = batching.getMaxSequenceIdleMicroseconds() == 0 ? DEFAULT_IDLE_US
            : batching.getMaxSequenceIdleMicroseconds();
        return new SequenceSettings(config.getName(), instances, Math.max(1, config.getMaxBatchSize()),
            SchedulerSettings.microsToNanos(batching.getDirect().getMaxQueueDelayMicroseconds()),
            batching.getDirect().getMinimumSlotUtilization(), SchedulerSettings.microsToNanos(idleUs));
    }
}
