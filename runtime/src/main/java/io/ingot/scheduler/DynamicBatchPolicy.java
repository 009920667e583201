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
public final class DynamicBatchPolicy implements BatchPolicy
{
    private static final long ONE_MICRO = 1_000L;

    private final LevelTable levels;
    private final LevelAdmission admission;
    private final BatchShapes shapes;
    private final boolean checkShapes;
    private final int maxBatch;
    private final int maxPreferred;
    private final int[] preferred;
    private final long maxDelayNs;

    /**
     * @param settings       the model's scheduling settings ({@code dynamic} must be true)
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     * @param admission      the per-level queue limits, released as requests leave the queues
     */
    public DynamicBatchPolicy(final SchedulerSettings settings, final boolean batchDimension,
        final LevelAdmission admission)
    {
        this.levels = new LevelTable(settings);
        this.admission = admission;
        this.shapes = new BatchShapes(settings, batchDimension);
        this.checkShapes = shapes.anyCheck();
        this.maxBatch = settings.maxBatchSize();
        this.maxPreferred = settings.maxPreferred();
        this.preferred = settings.preferredSizes();
        this.maxDelayNs = settings.maxDelayNs();
    }

    @Override
    public void enqueue(final PendingRequest request)
    {
        if (request.timeoutNs != 0)
        {
            request.deadlineNs = NanoClock.plus(request.acceptedNs, request.timeoutNs);
        }
        levels.append(request);
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        int pendingCount = 0;
        int pendingSize = 0;
        int bestSize = 0;
        int bestCount = 0;
        boolean sendNow = false;
        long oldestAccepted = Long.MAX_VALUE;
        long earliestDeadline = Long.MAX_VALUE;
        PendingRequest reference = null;

        scan:
        for (PolicyQueue queue = levels.first(); queue != null; queue = levels.next(queue))
        {
            for (int part = 0; part < 2; part++)
            {
                final RequestDeque deque = part == 0 ? queue.queue : queue.delayed;
                int index = 0;
                while (index < deque.size())
                {
                    final PendingRequest candidate = deque.get(index);
                    if (candidate.isCancelled())
                    {
                        deque.removeAt(index);
                        leave(queue, candidate);
                        ended.add(candidate, Ending.CANCELLED);
                        continue;
                    }
                    if (part == 0 && candidate.deadlineNs != 0 && nowNs > candidate.deadlineNs)
                    {
                        deque.removeAt(index);
                        if (queue.policy.delayOnTimeout())
                        {
                            candidate.deadlineNs = 0;
                            queue.delayed.addLast(candidate);
                        }
                        else
                        {
                            leave(queue, candidate);
                            ended.add(candidate, Ending.TIMED_OUT);
                        }
                        continue;
                    }
                    if (pendingCount == 0)
                    {
                        reference = candidate;
                    }
                    else
                    {
                        final int grown = pendingSize + candidate.batchSize;
                        if (grown > maxPreferred && bestSize == 0)
                        {
                            bestSize = pendingSize;
                            bestCount = pendingCount;
                        }
                        if (grown > maxBatch)
                        {
                            sendNow = true;
                            break scan;
                        }
                        if (checkShapes && !shapes.batchable(reference, candidate))
                        {
                            sendNow = true;
                            break scan;
                        }
                    }
                    pendingSize += candidate.batchSize;
                    pendingCount++;
                    index++;
                    oldestAccepted = Math.min(oldestAccepted, candidate.acceptedNs);
                    if (candidate.deadlineNs != 0)
                    {
                        earliestDeadline = Math.min(earliestDeadline, candidate.deadlineNs);
                    }
                    if (isPreferred(pendingSize))
                    {
                        bestSize = pendingSize;
                        bestCount = pendingCount;
                    }
                }
            }
        }

        if (pendingCount == 0)
        {
            return EMPTY;
        }
        final long delay = nowNs - oldestAccepted;
        final boolean delayExceeded = maxDelayNs != 0 && delay >= maxDelayNs;
        if (bestSize != 0 && !delayExceeded)
        {
            take(bestCount, batch);
            return DISPATCH;
        }
        if (sendNow || pendingSize >= maxPreferred || delayExceeded || maxDelayNs == 0)
        {
            take(pendingCount, batch);
            return DISPATCH;
        }
        long waitNs = maxDelayNs - delay;
        if (earliestDeadline != Long.MAX_VALUE)
        {
            waitNs = Math.min(waitNs, earliestDeadline - nowNs);
        }
        batch.waitUntil(nowNs + Math.max(ONE_MICRO, waitNs));
        return WAIT;
    }

    @Override
    public long sweep(final long nowNs, final EndedRequests ended)
    {
        long earliest = NO_DEADLINE;
        for (PolicyQueue queue = levels.first(); queue != null; queue = levels.next(queue))
        {
            final boolean reject = !queue.policy.delayOnTimeout();
            for (int part = 0; part < 2; part++)
            {
                final RequestDeque deque = part == 0 ? queue.queue : queue.delayed;
                int index = 0;
                while (index < deque.size())
                {
                    final PendingRequest candidate = deque.get(index);
                    if (candidate.isCancelled())
                    {
                        deque.removeAt(index);
                        leave(queue, candidate);
                        ended.add(candidate, Ending.CANCELLED);
                        continue;
                    }
                    if (reject && candidate.deadlineNs != 0)
                    {
                        if (nowNs > candidate.deadlineNs)
                        {
                            deque.removeAt(index);
                            leave(queue, candidate);
                            ended.add(candidate, Ending.TIMED_OUT);
                            continue;
                        }
                        earliest = Math.min(earliest, candidate.deadlineNs + 1);
                    }
                    index++;
                }
            }
        }
        return earliest;
    }

    @Override
    public void drain(final EndedRequests ended)
    {
        for (PolicyQueue queue = levels.first(); queue != null; queue = levels.first())
        {
            while (!queue.isEmpty())
            {
                final PendingRequest request = queue.pollFirst();
                leave(queue, request);
                ended.add(request, Ending.STOPPING);
            }
        }
    }

    @Override
    public int queuedRequests()
    {
        return levels.size();
    }

    /** Moves the first {@code count} requests in queue order (levels, then unexpired before delayed) into the batch. */
    private void take(final int count, final FormedBatch batch)
    {
        int remaining = count;
        for (PolicyQueue queue = levels.first(); remaining > 0 && queue != null; queue = levels.first())
        {
            while (remaining > 0 && !queue.isEmpty())
            {
                final PendingRequest next = queue.pollFirst();
                leave(queue, next);
                batch.add(next);
                remaining--;
            }
        }
    }

    /** Accounts for a request that left its level's queues (into a batch, or ended). */
    private void leave(final PolicyQueue queue, final PendingRequest request)
    {
        levels.removed(queue);
        admission.release(request.level);
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
