package io.ingot.scheduler;

import io.ingot.time.NanoClock;

/**
 * The queues every batching policy over Triton's dynamic-batcher semantics shares: strict priority levels
 * ({@link LevelTable}), each level's queue policy with REJECT and DELAY timeouts and its delayed queue, the
 * {@code max_queue_size} release ({@link LevelAdmission}), and the shape rules ({@link BatchShapes}). What differs
 * between policies is only which prefix of the queue they dispatch, and when: {@link #scan} finds the longest
 * batchable prefix and what each shorter prefix holds, {@link #take} moves a prefix into a batch.
 *
 * <p>Single-threaded: the holder of the batching role. Allocates nothing after construction (the deques grow only).
 */
final class BatchQueues
{
    private final LevelTable levels;
    private final LevelAdmission admission;
    private final BatchShapes shapes;
    private final boolean checkShapes;
    private final int maxBatch;
    /** {@code sizeAt[i]}: the summed batch size of the first {@code i + 1} requests of the last scan. */
    private final int[] sizeAt;
    /** {@code oldestAt[i]}: the earliest acceptance time among the first {@code i + 1} requests of the last scan. */
    private final long[] oldestAt;
    private int count;
    private boolean full;
    private long earliestDeadlineNs;

    /**
     * @param settings       the model's scheduling settings ({@code dynamic} must be true)
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     * @param admission      the per-level queue limits, released as requests leave the queues
     */
    BatchQueues(final SchedulerSettings settings, final boolean batchDimension, final LevelAdmission admission)
    {
        this.levels = new LevelTable(settings);
        this.admission = admission;
        this.shapes = new BatchShapes(settings, batchDimension);
        this.checkShapes = shapes.anyCheck();
        this.maxBatch = settings.maxBatchSize();
        // Every request has a batch size of at least 1, so a batch holds at most maxBatch requests.
        this.sizeAt = new int[maxBatch];
        this.oldestAt = new long[maxBatch];
    }

    /** Takes an accepted request in, at the end of its level's unexpired queue, with its absolute deadline. */
    void enqueue(final PendingRequest request)
    {
        if (request.timeoutNs != 0)
        {
            request.deadlineNs = NanoClock.plus(request.acceptedNs, request.timeoutNs);
        }
        levels.append(request);
    }

    /**
     * Walks the queues in queue order (levels by priority; in each, unexpired before delayed), ends what expired
     * under REJECT, moves what expired under DELAY to its delayed queue, and records the longest prefix that may form
     * one batch: up to {@code max_batch_size} and as long as every request is batchable with the first. It does not
     * look for cancellations ({@link #sweep} does, when a cancellation asks for one): the flag sits on a line the
     * request's submitter writes, and reading it here cost the role holder a cache miss per queued request.
     *
     * @param nowNs the current time
     * @param ended receives the requests ended on the way
     * @return the number of requests in that prefix (0 when nothing is queued)
     */
    int scan(final long nowNs, final EndedRequests ended)
    {
        count = 0;
        full = false;
        earliestDeadlineNs = Long.MAX_VALUE;
        int size = 0;
        long oldest = Long.MAX_VALUE;
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
                    if (count == 0)
                    {
                        reference = candidate;
                    }
                    else if (size + candidate.batchSize > maxBatch
                        || checkShapes && !shapes.batchable(reference, candidate))
                    {
                        full = true;
                        break scan;
                    }
                    size += candidate.batchSize;
                    oldest = Math.min(oldest, candidate.acceptedNs);
                    sizeAt[count] = size;
                    oldestAt[count] = oldest;
                    count++;
                    index++;
                    if (candidate.deadlineNs != 0)
                    {
                        earliestDeadlineNs = Math.min(earliestDeadlineNs, candidate.deadlineNs);
                    }
                }
            }
        }
        return count;
    }

    /** @return the number of requests the last {@link #scan} found batchable together */
    int count()
    {
        return count;
    }

    /**
     * @param requests a prefix length, {@code 1 <= requests <= count()}
     * @return the summed batch size of that prefix
     */
    int sizeOf(final int requests)
    {
        return sizeAt[requests - 1];
    }

    /** @return the summed batch size of the whole prefix the last {@link #scan} found (0 when empty) */
    int size()
    {
        return count == 0 ? 0 : sizeAt[count - 1];
    }

    /**
     * @param requests a prefix length, {@code 1 <= requests <= count()}
     * @return the earliest acceptance time in that prefix
     */
    long oldestOf(final int requests)
    {
        return oldestAt[requests - 1];
    }

    /** @return whether the last scan stopped at a request that could not join (the batch can grow no more) */
    boolean full()
    {
        return full;
    }

    /** @return the earliest queue deadline in the last scan's prefix, {@link Long#MAX_VALUE} for none */
    long earliestDeadlineNs()
    {
        return earliestDeadlineNs;
    }

    /** Moves the first {@code requests} requests in queue order (levels, unexpired before delayed) into a batch. */
    void take(final int requests, final FormedBatch batch)
    {
        int remaining = requests;
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

    /** The {@link BatchPolicy#sweep} of a dynamic-batcher queue: cancellations and REJECT timeouts. */
    long sweep(final long nowNs, final EndedRequests ended)
    {
        long earliest = BatchPolicy.NO_DEADLINE;
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
                    if (endIfCancelled(queue, deque, index, ended))
                    {
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

    /** Ends every queued request with {@link Ending#STOPPING}. */
    void drain(final EndedRequests ended)
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

    /** @return the number of queued requests (unexpired and delayed) */
    int queued()
    {
        return levels.size();
    }

    /**
     * Ends the request at {@code index} of one of a level's deques if its caller cancelled it.
     *
     * @return whether it was cancelled (and is gone from the deque)
     */
    private boolean endIfCancelled(final PolicyQueue queue, final RequestDeque deque, final int index,
        final EndedRequests ended)
    {
        final PendingRequest candidate = deque.get(index);
        if (!candidate.isCancelled())
        {
            return false;
        }
        deque.removeAt(index);
        leave(queue, candidate);
        ended.add(candidate, Ending.CANCELLED);
        return true;
    }

    /** Accounts for a request that left its level's queues (into a batch, or ended). */
    private void leave(final PolicyQueue queue, final PendingRequest request)
    {
        levels.removed(queue);
        admission.release(request.level);
    }
}
