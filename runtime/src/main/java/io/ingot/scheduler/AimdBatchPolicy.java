package io.ingot.scheduler;

import java.util.Arrays;

/**
 * Clipper's adaptive batching (Crankshaw et al., NSDI'17, §4.3) as a {@link BatchPolicy}: each instance has a batch
 * size cap, which grows by an additive step after every batch whose execution stayed within the latency objective and
 * is cut by a multiplicative factor after one that did not. A free instance dispatches what is queued at once, up to
 * its cap; it never waits (Clipper's optional batching delay is off by default, and is what the adaptive policy adds).
 * The cap starts at 1 and stays within {@code 1..max_batch_size}. Priority levels, queue policies, timeouts and
 * shapes are the dynamic batcher's ({@link BatchQueues}).
 *
 * <p>The objective is compared with the execution time alone, as Clipper measures it: queueing is not part of what
 * the cap controls. Single-threaded (see {@link BatchPolicy}); allocation-free.
 */
public final class AimdBatchPolicy extends QueuedBatchPolicy
{
    private final int maxBatch;
    private final long sloNs;
    private final int increase;
    private final double decrease;
    private final int[] caps;

    /**
     * @param settings       the model's scheduling settings ({@code dynamic} must be true)
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     * @param admission      the per-level queue limits, released as requests leave the queues
     * @param instances      the model's instance count (each has its own cap)
     * @param sloNs          the latency objective of one execution, {@code > 0}
     * @param increase       the additive step, {@code >= 1}
     * @param decrease       the multiplicative factor, in (0, 1)
     */
    public AimdBatchPolicy(final SchedulerSettings settings, final boolean batchDimension,
        final LevelAdmission admission, final int instances, final long sloNs, final int increase,
        final double decrease)
    {
        super(settings, batchDimension, admission);
        if (sloNs <= 0 || increase < 1 || !(decrease > 0 && decrease < 1) || instances < 1)
        {
            throw new IllegalArgumentException("SLO " + sloNs + " ns, increase " + increase + ", decrease " + decrease
                + ", instances " + instances + ": expected an SLO > 0, an increase >= 1, a decrease in (0, 1) and at"
                + " least one instance");
        }
        this.maxBatch = settings.maxBatchSize();
        this.sloNs = sloNs;
        this.increase = increase;
        this.decrease = decrease;
        this.caps = new int[instances];
        Arrays.fill(caps, 1);
    }

    @Override
    public boolean learnsExecution()
    {
        return true;
    }

    @Override
    public void executed(final int instance, final int batchSize, final long durationNs)
    {
        if (instance < 0 || instance >= caps.length)
        {
            return;
        }
        final int cap = caps[instance];
        caps[instance] = durationNs > sloNs ? Math.max(1, (int)(cap * decrease))
            : (int)Math.min(maxBatch, (long)cap + increase);
    }

    /**
     * @param instance an instance's index
     * @return its current batch size cap
     */
    public int cap(final int instance)
    {
        return caps[instance];
    }

    @Override
    int form(final long nowNs, final int instance, final int count, final FormedBatch batch)
    {
        final int cap = caps[Math.min(instance, caps.length - 1)];
        int requests = 1;
        while (requests < count && queues.sizeOf(requests + 1) <= cap)
        {
            requests++;
        }
        queues.take(requests, batch);
        return DISPATCH;
    }
}
