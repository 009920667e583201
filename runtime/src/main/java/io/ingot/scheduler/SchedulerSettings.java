package io.ingot.scheduler;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Everything batch formation needs from a model configuration, resolved once at load. Immutable.
 *
 * <p>{@code priority_levels}, {@code default_priority_level} and the level keys are {@code uint64} in Triton's
 * schema: they are compared unsigned here, so every value Triton accepts behaves as in Triton (a level number above
 * {@link Long#MAX_VALUE} included).
 *
 * @param dynamic          true with {@code dynamic_batching}, false for Triton's default scheduler
 * @param maxBatchSize     {@code max(1, max_batch_size)}
 * @param preferredSizes   preferred batch sizes, ascending (empty with {@code max_batch_size: 0})
 * @param maxDelayNs       {@code max_queue_delay_microseconds} in nanoseconds
 * @param preserveOrdering {@code preserve_ordering}
 * @param priorityLevels   {@code priority_levels} (0: one level), unsigned
 * @param defaultLevel     {@code default_priority_level}, unsigned
 * @param defaultPolicy    the policy of levels without an explicit one
 * @param levelPolicies    explicit per-level policies
 * @param shapeChecked     indices of inputs whose shapes must match within a batch
 * @param contentChecked   indices of shape-tensor inputs whose contents must match within a batch
 * @param optionalInputs   whether some input is optional (then input sets must match within a batch)
 */
public record SchedulerSettings(boolean dynamic, int maxBatchSize, int[] preferredSizes, long maxDelayNs,
    boolean preserveOrdering, long priorityLevels, long defaultLevel, QueuePolicy defaultPolicy,
    Map<Long, QueuePolicy> levelPolicies, int[] shapeChecked, int[] contentChecked, boolean optionalInputs)
{
    private static final QueuePolicy NO_POLICY = new QueuePolicy(false, 0, false, 0);

    /**
     * Resolves the settings of a normalized configuration.
     *
     * @param config the model configuration
     * @return the settings
     */
    public static SchedulerSettings of(final ModelConfig config)
    {
        final int maxBatchSize = Math.max(1, config.getMaxBatchSize());
        final int inputs = config.getInputCount();
        final int[] shapeChecked = new int[inputs];
        final int[] contentChecked = new int[inputs];
        int shapes = 0;
        int contents = 0;
        boolean optional = false;
        for (int i = 0; i < inputs; i++)
        {
            final ModelInput input = config.getInput(i);
            optional |= input.getOptional();
            if (input.getIsShapeTensor())
            {
                shapeChecked[shapes++] = i;
                contentChecked[contents++] = i;
            }
            else if (!input.getAllowRaggedBatch() && input.getDimsList().contains(-1L))
            {
                shapeChecked[shapes++] = i;
            }
        }
        final int[] checkedShapes = Arrays.copyOf(shapeChecked, shapes);
        final int[] checkedContents = Arrays.copyOf(contentChecked, contents);

        if (!config.hasDynamicBatching())
        {
            // The Oldest sequence strategy's own preserve_ordering orders responses as the dynamic batcher's does.
            final boolean ordered = config.getSequenceBatching().getOldest().getPreserveOrdering();
            return new SchedulerSettings(false, 1, new int[0], 0, ordered, 0, 0, NO_POLICY, Map.of(), checkedShapes,
                checkedContents, optional);
        }
        final ModelDynamicBatching batching = config.getDynamicBatching();
        final int[] preferred = config.getMaxBatchSize() == 0 ? new int[0]
            : batching.getPreferredBatchSizeList().stream().mapToInt(Integer::intValue).sorted().distinct()
                .toArray();
        final Map<Long, QueuePolicy> levelPolicies = new HashMap<>();
        batching.getPriorityQueuePolicyMap()
            .forEach((level, policy) -> levelPolicies.put(level, QueuePolicy.of(policy)));
        return new SchedulerSettings(true, maxBatchSize, preferred,
            microsToNanos(batching.getMaxQueueDelayMicroseconds()), batching.getPreserveOrdering(),
            batching.getPriorityLevels(), batching.getDefaultPriorityLevel(),
            QueuePolicy.of(batching.getDefaultQueuePolicy()), Map.copyOf(levelPolicies), checkedShapes,
            checkedContents, optional);
    }

    /**
     * @param micros an unsigned number of microseconds from the configuration
     * @return it in nanoseconds, saturated at {@link Long#MAX_VALUE} (about 292 years)
     */
    public static long microsToNanos(final long micros)
    {
        if (micros < 0 || micros > Long.MAX_VALUE / 1000)
        {
            return Long.MAX_VALUE;
        }
        return micros * 1000;
    }

    /** @return the largest preferred batch size, 0 when there is none */
    public int maxPreferred()
    {
        return preferredSizes.length == 0 ? 0 : preferredSizes[preferredSizes.length - 1];
    }

    /**
     * Maps a request's priority to its level, as Triton does: 0 or beyond {@code priority_levels} means the default
     * level; without levels (or without dynamic batching) everything is level 0. Priorities compare unsigned, as
     * Triton's {@code uint64} does.
     *
     * @param priority the request's priority
     * @return the level
     */
    public long levelOf(final long priority)
    {
        if (!dynamic || priorityLevels == 0)
        {
            return 0;
        }
        return priority == 0 || Long.compareUnsigned(priority, priorityLevels) > 0 ? defaultLevel : priority;
    }

    /**
     * @param level a level
     * @return its policy: the explicit one, or the default
     */
    public QueuePolicy policyOf(final long level)
    {
        final QueuePolicy explicit = levelPolicies.get(level);
        return explicit != null ? explicit : defaultPolicy;
    }

    /** @return whether some level's policy has a queue timeout (then timeouts may need answering on time) */
    public boolean hasTimeouts()
    {
        if (!dynamic)
        {
            return false;
        }
        boolean any = defaultPolicy.defaultTimeoutNs() != 0;
        for (final QueuePolicy policy : levelPolicies.values())
        {
            any |= policy.defaultTimeoutNs() != 0;
        }
        return any;
    }

    /**
     * @return whether some level's policy has a queue timeout and REJECTs when it passes (then a request must be
     *         answered when its timeout passes, also while every instance is busy); false without a dynamic batcher
     */
    public boolean rejectsOnTimeout()
    {
        if (!dynamic)
        {
            return false;
        }
        boolean rejects = !defaultPolicy.delayOnTimeout() && defaultPolicy.defaultTimeoutNs() != 0;
        for (final QueuePolicy policy : levelPolicies.values())
        {
            rejects |= !policy.delayOnTimeout() && policy.defaultTimeoutNs() != 0;
        }
        return rejects;
    }
}
