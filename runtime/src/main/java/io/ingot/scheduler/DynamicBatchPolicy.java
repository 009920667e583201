package io.ingot.scheduler;

/**
 * Triton's dynamic batcher as a {@link BatchPolicy}: {@code GetDynamicBatch} of triton-scheduling.md §2.4 over strict
 * priority levels (§2.7), queue policies with REJECT and DELAY timeouts and the delayed queues (§2.8, §2.9), and the
 * shape rules (§2.10).
 *
 * <p>A batch is formed only when an instance is free and contains every request queued at that moment (up to the
 * rules), which is what Triton's payload reaches by staying appendable until an instance takes it (§2.3, §2.11):
 * the batch Triton's instance takes is the batch this policy forms when asked by the free instance. The scan starts
 * at the head on every decision, as Triton's does whenever its pending batch holds no deadline.
 *
 * <p>Single-threaded (see {@link BatchPolicy}).
 */
public final class DynamicBatchPolicy extends QueuedBatchPolicy
{
    private static final long ONE_MICRO = 1_000L;

    private final int maxPreferred;
    private final int[] preferred;
    private final long maxDelayNs;
    private final int maxBatch;
    /** One priority level and no queue timeout: requests leave the queue in the order they arrived. */
    private final boolean arrivalOrder;

    /**
     * @param settings       the model's scheduling settings ({@code dynamic} must be true)
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     * @param admission      the per-level queue limits, released as requests leave the queues
     */
    public DynamicBatchPolicy(final SchedulerSettings settings, final boolean batchDimension,
        final LevelAdmission admission)
    {
        super(settings, batchDimension, admission);
        this.maxPreferred = settings.maxPreferred();
        this.preferred = settings.preferredSizes();
        this.maxDelayNs = settings.maxDelayNs();
        this.maxBatch = settings.maxBatchSize();
        this.arrivalOrder = settings.priorityLevels() == 0 && !settings.hasTimeouts();
    }

    /**
     * In arrival order, {@code max_batch_size} queued requests settle the next batch: every request counts at least 1,
     * so the scan stops within them (the batch is full, or the next request does not fit or is not batchable) and
     * dispatches at once, and a later arrival would queue behind them.
     */
    @Override
    public boolean holdsNextBatch()
    {
        return arrivalOrder && queues.queued() >= maxBatch;
    }

    @Override
    int form(final long nowNs, final int instance, final int pendingCount, final FormedBatch batch)
    {
        // The best preferred prefix: the last that sums to a preferred size, or the prefix before the sum first
        // exceeds the largest preferred size.
        int bestSize = 0;
        int bestCount = 0;
        int before = 0;
        for (int requests = 1; requests <= pendingCount; requests++)
        {
            final int grown = queues.sizeOf(requests);
            if (requests > 1 && grown > maxPreferred && bestSize == 0)
            {
                bestSize = before;
                bestCount = requests - 1;
            }
            if (isPreferred(grown))
            {
                bestSize = grown;
                bestCount = requests;
            }
            before = grown;
        }
        final int pendingSize = before;
        // A request that could not join (too large, or not batchable) ends the batch here: every branch below then
        // dispatches the whole prefix, as Triton's does once its scan stopped.
        final boolean sendNow = queues.full();
        final long delay = nowNs - queues.oldestOf(pendingCount);
        final boolean delayExceeded = maxDelayNs != 0 && delay >= maxDelayNs;
        if (bestSize != 0 && !delayExceeded)
        {
            queues.take(bestCount, batch);
            return DISPATCH;
        }
        if (sendNow || pendingSize >= maxPreferred || delayExceeded || maxDelayNs == 0)
        {
            queues.take(pendingCount, batch);
            return DISPATCH;
        }
        long waitNs = maxDelayNs - delay;
        final long earliestDeadline = queues.earliestDeadlineNs();
        if (earliestDeadline != Long.MAX_VALUE)
        {
            waitNs = Math.min(waitNs, earliestDeadline - nowNs);
        }
        batch.waitUntil(nowNs + Math.max(ONE_MICRO, waitNs));
        return WAIT;
    }

    private boolean isPreferred(final int size)
    {
        for (int i = 0; i < preferred.length; i++)
        {
            if (preferred[i] == size)
            {
                return true;
            }
        }
        return false;
    }
}
