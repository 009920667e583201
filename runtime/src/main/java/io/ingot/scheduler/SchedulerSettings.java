package io.ingot.scheduler;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelQueuePolicy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Everything the batcher needs from a model configuration, resolved once at load.
 *
 * @param dynamic            true with {@code dynamic_batching}, false for Triton's default scheduler
 * @param maxBatchSize       {@code max(1, max_batch_size)}
 * @param preferredSizes     preferred batch sizes, ascending (empty with {@code max_batch_size: 0})
 * @param maxDelayNs         {@code max_queue_delay_microseconds} in nanoseconds
 * @param preserveOrdering   {@code preserve_ordering}
 * @param priorityLevels     {@code priority_levels} (0: one level)
 * @param defaultLevel       {@code default_priority_level}
 * @param defaultPolicy      the policy of levels without an explicit one
 * @param levelPolicies      explicit per-level policies
 * @param prefetch           whether batches may be formed ahead of idle instances
 * @param shapeChecked       indices of inputs whose shapes must match within a batch
 * @param contentChecked     indices of shape-tensor inputs whose contents must match within a batch
 * @param optionalInputs     whether some input is optional (then input sets must match within a batch)
 */
public record SchedulerSettings(boolean dynamic, int maxBatchSize, int[] preferredSizes, long maxDelayNs,
    boolean preserveOrdering, long priorityLevels, long defaultLevel, QueuePolicyView defaultPolicy,
    Map<Long, QueuePolicyView> levelPolicies, boolean prefetch, int[] shapeChecked, int[] contentChecked,
    boolean optionalInputs)
{
    /**
     * Public view of a level policy.
     *
     * @param delayOnTimeout       DELAY (true) or REJECT
     * @param defaultTimeoutNs     default timeout, 0 for none
     * @param allowTimeoutOverride whether requests may shorten it
     * @param maxQueueSize         the level's limit, 0 for none
     */
    public record QueuePolicyView(boolean delayOnTimeout, long defaultTimeoutNs, boolean allowTimeoutOverride,
        int maxQueueSize)
    {
        QueuePolicy toPolicy()
        {
            return new QueuePolicy(delayOnTimeout, defaultTimeoutNs, allowTimeoutOverride, maxQueueSize);
        }

        static QueuePolicyView of(final ModelQueuePolicy policy)
        {
            final QueuePolicy resolved = QueuePolicy.of(policy);
            return new QueuePolicyView(resolved.delayOnTimeout(), resolved.defaultTimeoutNs(),
                resolved.allowTimeoutOverride(), resolved.maxQueueSize());
        }
    }

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
            return new SchedulerSettings(false, 1, new int[0], 0, false, 0, 0,
                new QueuePolicyView(false, 0, false, 0), Map.of(), true, checkedShapes, checkedContents, optional);
        }
        final ModelDynamicBatching batching = config.getDynamicBatching();
        final int[] preferred = config.getMaxBatchSize() == 0 ? new int[0]
            : batching.getPreferredBatchSizeList().stream().mapToInt(Integer::intValue).sorted().distinct()
                .toArray();
        final Map<Long, QueuePolicyView> levelPolicies = new HashMap<>();
        batching.getPriorityQueuePolicyMap().forEach((level, policy) ->
            levelPolicies.put(level, QueuePolicyView.of(policy)));
        final ModelQueuePolicy defaultPolicy = batching.getDefaultQueuePolicy();
        final boolean prefetch = batching.getPriorityLevels() == 0 && defaultPolicy.getDefaultTimeoutMicroseconds() == 0
            && !defaultPolicy.getAllowTimeoutOverride() && defaultPolicy.getMaxQueueSize() == 0;
        return new SchedulerSettings(true, maxBatchSize, preferred,
            batching.getMaxQueueDelayMicroseconds() * 1000L, batching.getPreserveOrdering(),
            batching.getPriorityLevels(), batching.getDefaultPriorityLevel(), QueuePolicyView.of(defaultPolicy),
            Map.copyOf(levelPolicies), prefetch, checkedShapes, checkedContents, optional);
    }

    /** @return the largest preferred batch size, 0 when there is none. */
    public int maxPreferred()
    {
        return preferredSizes.length == 0 ? 0 : preferredSizes[preferredSizes.length - 1];
    }

    /**
     * Maps a request's priority to its level, as Triton does: 0 or beyond {@code priority_levels} means the default
     * level; without levels (or without dynamic batching) everything is level 0.
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
        return priority == 0 || priority > priorityLevels || priority < 0 ? defaultLevel : priority;
    }

    /**
     * @param level a level
     * @return its policy
     */
    public QueuePolicyView policyOf(final long level)
    {
        final QueuePolicyView explicit = levelPolicies.get(level);
        return explicit != null ? explicit : defaultPolicy;
    }
}
