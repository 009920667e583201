package io.ingot.scheduler;

import java.util.List;
import java.util.function.BiFunction;

/**
 * A batching configuration the simulated comparison runs: a name, the model's configuration (as {@code config.pbtxt}
 * text after name and backend) and how the policy is made from its settings. Each {@link #policy} call makes a fresh
 * policy, so runs share nothing.
 *
 * @param name    how the table names it
 * @param pbtxt   the configuration: {@code max_batch_size}, input, output, {@code dynamic_batching}
 * @param factory makes the policy from the normalized settings and their admission
 */
record SimContender(String name, String pbtxt,
    BiFunction<SchedulerSettings, LevelAdmission, BatchPolicy> factory)
{
    private static final String IO = " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] }]"
        + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] }] ";

    /** @return a fresh policy of this configuration */
    BatchPolicy policy()
    {
        final SchedulerSettings settings = SchedulerSettings.of(PolicyBench.normalized(pbtxt));
        return factory.apply(settings, new LevelAdmission(settings));
    }

    /**
     * Triton's dynamic batcher.
     *
     * @param maxBatch  {@code max_batch_size}
     * @param delayUs   {@code max_queue_delay_microseconds}
     * @param preferred {@code preferred_batch_size} (empty for none)
     */
    static SimContender dynamic(final int maxBatch, final long delayUs, final List<Integer> preferred)
    {
        final StringBuilder batching = new StringBuilder("dynamic_batching { max_queue_delay_microseconds: ")
            .append(delayUs);
        preferred.forEach(size -> batching.append(" preferred_batch_size: ").append(size));
        batching.append(" }");
        final String name = "max " + maxBatch + ", delay " + delayUs + "us"
            + (preferred.isEmpty() ? "" : ", preferred " + preferred);
        return new SimContender(name, "max_batch_size: " + maxBatch + IO + batching,
            (settings, admission) -> new DynamicBatchPolicy(settings, true, admission));
    }

    /** The adaptive policy at the SLO's 99th percentile, {@code max_batch_size} 16. */
    static SimContender adaptive(final int instances, final long sloNs)
    {
        return new SimContender("adaptive", "max_batch_size: 16" + IO + "dynamic_batching { }",
            (settings, admission) -> new AdaptiveBatchPolicy(settings, true, admission, instances, sloNs, 99));
    }

    /** Clipper's AIMD with its defaults (step 1, cut to 0.9), the SLO as its execution objective. */
    static SimContender aimd(final int instances, final long sloNs)
    {
        return new SimContender("aimd", "max_batch_size: 16" + IO + "dynamic_batching { }",
            (settings, admission) -> new AimdBatchPolicy(settings, true, admission, instances, sloNs, 1, 0.9));
    }
}
