package io.ingot.scheduler;

/**
 * An SLO-aware batching policy that decides from measurements instead of a fixed queue delay: it learns each batch
 * size's execution time per instance ({@link ExecutionTimes}), watches the arrivals ({@link ArrivalGaps}), and, when
 * an instance is free, either dispatches now or waits for the next request. The algorithm and its reasoning are
 * in {@code docs/adaptive-batching.md}; in short, with {@code n} the queued batch size, {@code E(s)} the expected and
 * {@code P(s)} the planned (SLO-percentile) execution time of size {@code s}, and {@code g} the expected time to the
 * next arrival:
 * <ol>
 *   <li>Wait for one more request when that lowers the summed latency of the queued requests and the next one —
 *       {@code (n + 1)·(g + E(n+1) − E(n)) < E(1)}, a control limit in {@code n} — or when requests arrive faster than
 *       a lone one runs ({@code g < E(1)}) and {@code n} is below the load's batch size: the size whose
 *       predicted mean latency at the measured rate, waiting for a free instance included, is least
 *       ({@link #loadTarget}; none while no size keeps up with the arrivals);
 *       and only while the oldest queued request still meets the SLO after the wait with a margin of the execution
 *       time's spread: {@code queued + g + P(n+1) + (P(n+1) − E(n+1)) <= SLO}. The wait lasts until the next arrival
 *       (then it decides again), or until the arrivals count as stopped, the SLO leaves no more room, or a REJECT
 *       deadline comes, whichever is first.</li>
 *   <li>Otherwise dispatch the whole batchable prefix, or, only when nothing waits beyond it, the longest prefix
 *       whose oldest request meets the SLO at that prefix's planned time, never smaller than the load's batch size
 *       (so that a burst or a stall that made the queue long does not also make the batches small).</li>
 * </ol>
 * Before anything is learnt, or when no arrival is expected soon, it dispatches what is queued at once, as Triton's
 * dynamic batcher without a queue delay does; a request at concurrency 1 therefore never waits. Priority levels,
 * queue policies, timeouts and shapes are the dynamic batcher's ({@link BatchQueues}).
 *
 * <p>Single-threaded (see {@link BatchPolicy}); allocation-free once each batch size ran once.
 */
public final class AdaptiveBatchPolicy extends QueuedBatchPolicy
{
    private static final long ONE_MICRO = 1_000L;
    /** {@link #loadTarget}: no batch size keeps up with the arrivals. */
    private static final int OVERLOADED = 0;

    private final ExecutionTimes[] times;
    private final ArrivalGaps arrivals = new ArrivalGaps();
    private final int maxBatch;
    private final long sloNs;

    /**
     * @param settings       the model's scheduling settings ({@code dynamic} must be true)
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     * @param admission      the per-level queue limits, released as requests leave the queues
     * @param instances      the model's instance count (each learns its own execution times)
     * @param sloNs          the latency objective, {@code > 0}
     * @param percentile     the share of requests, in percent, in (0, 100), that must meet the objective
     */
    public AdaptiveBatchPolicy(final SchedulerSettings settings, final boolean batchDimension,
        final LevelAdmission admission, final int instances, final long sloNs, final double percentile)
    {
        super(settings, batchDimension, admission);
        if (sloNs <= 0 || !(percentile > 0 && percentile < 100) || instances < 1)
        {
            throw new IllegalArgumentException("SLO " + sloNs + " ns, percentile " + percentile + ", instances "
                + instances + ": expected an SLO > 0, a percentile in (0, 100) and at least one instance");
        }
        this.maxBatch = settings.maxBatchSize();
        this.sloNs = sloNs;
        this.times = new ExecutionTimes[instances];
        for (int i = 0; i < instances; i++)
        {
            times[i] = new ExecutionTimes(maxBatch, percentile);
        }
    }

    @Override
    public void enqueue(final PendingRequest request)
    {
        arrivals.arrived(request.acceptedNs);
        queues.enqueue(request);
    }

    @Override
    public boolean learnsExecution()
    {
        return true;
    }

    @Override
    public void executed(final int instance, final int batchSize, final long durationNs)
    {
        if (instance >= 0 && instance < times.length)
        {
            times[instance].record(batchSize, durationNs);
        }
    }

    @Override
    int form(final long nowNs, final int instance, final int count, final FormedBatch batch)
    {
        final ExecutionTimes learnt = times[Math.min(instance, times.length - 1)];
        final int size = queues.size();
        if (!queues.full() && size < maxBatch)
        {
            final long waitUntil = waitUntil(nowNs, learnt, size, queues.oldestOf(count));
            if (waitUntil != 0)
            {
                batch.waitUntil(waitUntil);
                return WAIT;
            }
        }
        queues.take(dispatchCount(nowNs, learnt, count), batch);
        return DISPATCH;
    }

    /**
     * Steps 1 and 2: whether waiting for the next arrival pays, and until when.
     *
     * @return the time to decide again, or 0 to dispatch now
     */
    private long waitUntil(final long nowNs, final ExecutionTimes learnt, final int size, final long oldestNs)
    {
        final long gap = arrivals.expectedGapNs(nowNs);
        final long single = learnt.expectedNs(1);
        final long current = learnt.expectedNs(size);
        final long grown = learnt.expectedNs(size + 1);
        final long planned = learnt.plannedNs(size + 1);
        if (gap == ArrivalGaps.NONE || single == ExecutionTimes.UNKNOWN || current == ExecutionTimes.UNKNOWN
            || grown == ExecutionTimes.UNKNOWN || planned == ExecutionTimes.UNKNOWN)
        {
            return 0;
        }
        // Summed latency of the n queued and the next request: waiting adds g + E(n+1) - E(n) to each of the n and
        // gives the next E(n+1); dispatching now gives the n E(n) and the next E(n) - g + E(1) (it waits out the
        // batch). The load's batch size is waited for only while some size keeps up with the arrivals: past that
        // (a burst's peak) the queue grows behind the busy instances anyway, and a free one that waits only idles.
        final double waitCost = (double)(size + 1) * (gap + grown - current);
        if (waitCost >= single && !(gap < single && size < loadTarget(learnt, gap)))
        {
            return 0;
        }
        // Plan the wait with the spread once more as a margin: the planned time is the quantile of a window of 32,
        // about its 97th percentile, so a batch dispatched at the SLO's very edge misses it one time in thirty.
        final long latestStart = oldestNs + sloNs - planned - Math.max(0, planned - grown);
        if (nowNs + gap > latestStart)
        {
            return 0;
        }
        long until = Math.min(arrivals.silenceAtNs(), latestStart);
        final long deadline = queues.earliestDeadlineNs();
        if (deadline != Long.MAX_VALUE)
        {
            until = Math.min(until, deadline);
        }
        return Math.max(nowNs + ONE_MICRO, until);
    }

    /**
     * The batch size that serves the measured arrival rate with the least mean latency. For each size {@code s} a
     * request waits on average {@code (s − 1)·g/2} for its batch to fill, then for an instance — an M/D/1 queue with
     * the {@code k} instances pooled, {@code ρ·E(s) / (2k·(1 − ρ))} at utilisation {@code ρ = E(s) / (k·s·g)} — then
     * runs {@code E(s)}. The myopic rule above cannot see the second term: batches just large enough to keep up run
     * the instances near saturation, where the wait for a free one is most of the tail. Sizes that would overload
     * the instances ({@code ρ >= 1}) are skipped.
     *
     * @return a batch size in {@code 1..max_batch_size}, or {@link #OVERLOADED} when every size would overload the
     *     instances (the peak of a burst): then a queue forms behind the busy instances whatever a free one does
     */
    private int loadTarget(final ExecutionTimes learnt, final long gapNs)
    {
        final int instances = times.length;
        int best = OVERLOADED;
        double least = Double.MAX_VALUE;
        for (int size = 1; size <= maxBatch; size++)
        {
            final long run = learnt.expectedNs(size);
            if (run == ExecutionTimes.UNKNOWN)
            {
                break;
            }
            final double busy = run / ((double)instances * size * gapNs);
            if (busy >= 1)
            {
                continue;
            }
            final double latency = (size - 1) * gapNs / 2.0 + busy * run / (2.0 * instances * (1 - busy)) + run;
            if (latency < least)
            {
                least = latency;
                best = size;
            }
        }
        return best;
    }

    /**
     * Step 3: how many requests go. The longest prefix whose oldest request still meets the SLO, but never fewer
     * than the load needs: shrinking a batch lowers the throughput exactly when a burst or a stall made the queue
     * long, the next batches then start later still, and the queue grows (a spiral). So the whole batchable prefix
     * goes when requests wait beyond it (a backlog), when even the first request cannot meet the SLO (nobody is
     * saved), or when a shorter prefix would be smaller than the load's batch size ({@link #loadTarget}).
     */
    private int dispatchCount(final long nowNs, final ExecutionTimes learnt, final int count)
    {
        if (queues.queued() > count || learnt.plannedNs(queues.sizeOf(count)) == ExecutionTimes.UNKNOWN)
        {
            return count;
        }
        int fits = 0;
        for (int requests = 1; requests <= count; requests++)
        {
            final long planned = learnt.plannedNs(queues.sizeOf(requests));
            if (planned == ExecutionTimes.UNKNOWN || nowNs - queues.oldestOf(requests) + planned > sloNs)
            {
                break;
            }
            fits = requests;
        }
        if (fits == 0 || fits == count)
        {
            return count;
        }
        final int needed = neededSize(nowNs, learnt);
        while (fits < count && queues.sizeOf(fits) < needed)
        {
            fits++;
        }
        return fits;
    }

    /**
     * @return the load's batch size while requests come faster than a lone one runs ({@code max_batch_size} when no
     *     size keeps up), else 1
     */
    private int neededSize(final long nowNs, final ExecutionTimes learnt)
    {
        final long gap = arrivals.expectedGapNs(nowNs);
        final long single = learnt.expectedNs(1);
        if (gap == ArrivalGaps.NONE || single == ExecutionTimes.UNKNOWN || gap >= single)
        {
            return 1;
        }
        final int target = loadTarget(learnt, gap);
        return target == OVERLOADED ? maxBatch : target;
    }
}
