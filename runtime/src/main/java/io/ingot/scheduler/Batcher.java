package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.ring.RequestRing;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The scheduler of one model version: callers {@link #enqueue} into its ring from any thread; its one thread drains
 * the ring into priority levels and forms batches exactly as Triton's dynamic batcher does (see
 * {@code triton-scheduling.md} §2), or one request per batch for Triton's default scheduler.
 *
 * <p>Differences from Triton that only make timing better: the batch is re-scanned from the head on each pass (which
 * Triton effectively does, since its cursor is invalid whenever the pending batch holds no deadline), and while no
 * instance is free the REJECT sweep runs at the earliest pending deadline rather than every 500 ms.
 */
public final class Batcher implements Runnable
{
    private static final System.Logger LOG = System.getLogger(Batcher.class.getName());
    private static final long SLOT_SWEEP_NS = 500_000_000L;
    private static final long NO_WAKE = Long.MAX_VALUE;
    private static final long ONE_MICRO = 1_000L;
    private static final Runnable NO_PROBE = () ->
    {
    };

    private final String modelName;
    private final SchedulerSettings settings;
    private final RequestRing<PendingRequest> ring;
    private final LevelTable levels;
    private final QueueLimiter limiter;
    private final PayloadQueue payloads;
    private final RequestCompleter completer;
    private final IdleMode idleMode;
    private final int maxPreferred;
    private final boolean batchDimension;
    private final boolean hasTimeouts;
    private final Runnable beforeSlotCheck;

    private final AtomicLong queuedBatchSize = new AtomicLong();
    private final AtomicInteger admitting = new AtomicInteger();
    private final Consumer<PendingRequest> intake = this::accept;
    private final ArrayList<PendingRequest> rejected = new ArrayList<>();
    private final ArrayList<PendingRequest> cancelled = new ArrayList<>();
    private final Runnable wakeRunnable = this::wakeAlways;
    private final Runnable cancelRunnable = this::onCancel;
    private volatile boolean sweepRequested;

    private volatile Thread thread;
    private volatile boolean parked;
    private volatile long wakeThreshold;
    private volatile boolean stopping;

    // Batcher-thread state of the pass in progress.
    private Payload current;
    private int pendingCount;
    private int pendingSize;
    private boolean saturateCurrent;
    private long nextOrderSequence;

    /**
     * @param modelName  the model, for messages
     * @param settings   the resolved scheduling settings
     * @param ringSize   request ring slots
     * @param payloads   where formed batches go
     * @param completer  answers requests ended by the scheduler
     * @param idleMode   what the thread does while waiting
     * @param batchDimension true when request shapes carry a leading batch dimension ({@code max_batch_size > 0})
     */
    public Batcher(final String modelName, final SchedulerSettings settings, final int ringSize,
        final PayloadQueue payloads, final RequestCompleter completer, final IdleMode idleMode,
        final boolean batchDimension)
    {
        this(modelName, settings, ringSize, payloads, completer, idleMode, batchDimension, NO_PROBE);
    }

    /**
     * Test seam: as the public constructor, plus {@code beforeSlotCheck}, which the batcher thread runs on every pass
     * that has queued requests, after draining the ring and right before asking for a payload slot. Tests use it to
     * make other threads act at exactly that point.
     */
    Batcher(final String modelName, final SchedulerSettings settings, final int ringSize,
        final PayloadQueue payloads, final RequestCompleter completer, final IdleMode idleMode,
        final boolean batchDimension, final Runnable beforeSlotCheck)
    {
        this.beforeSlotCheck = beforeSlotCheck;
        this.batchDimension = batchDimension;
        this.modelName = modelName;
        this.settings = settings;
        this.ring = new RequestRing<>(ringSize);
        this.levels = new LevelTable(settings);
        this.limiter = new QueueLimiter(settings);
        this.payloads = payloads;
        this.completer = completer;
        this.idleMode = idleMode;
        this.maxPreferred = settings.maxPreferred();
        boolean timeouts = settings.defaultPolicy().defaultTimeoutNs() != 0;
        for (final SchedulerSettings.QueuePolicyView policy : settings.levelPolicies().values())
        {
            timeouts |= policy.defaultTimeoutNs() != 0;
        }
        this.hasTimeouts = settings.dynamic() && timeouts;
    }

    /** @return a runnable that wakes the batcher (for instance threads that became idle). */
    public Runnable waker()
    {
        return wakeRunnable;
    }

    /** @return a runnable that tells the batcher a queued request was cancelled, so it answers it promptly. */
    public Runnable cancelHook()
    {
        return cancelRunnable;
    }

    private void onCancel()
    {
        sweepRequested = true;
        wakeAlways();
    }

    /**
     * Accepts a request from any thread: maps its priority to a level, applies the level's queue limit
     * synchronously, and publishes it into the ring.
     *
     * @param pending the request, filled in by the caller
     * @throws InferenceException UNAVAILABLE when the level's queue is full or the scheduler is stopping
     */
    public void enqueue(final PendingRequest pending)
    {
        final InferenceRequest request = pending.request;
        admitting.incrementAndGet();
        try
        {
            if (stopping)
            {
                throw new InferenceException(ErrorCode.UNAVAILABLE, "[request id: " + idOf(request)
                    + "] Server is stopping, scheduler for model has stopped accepting new inference requests");
            }
            final long level = settings.levelOf(request.priority());
            pending.level = level;
            if (settings.dynamic())
            {
                final SchedulerSettings.QueuePolicyView policy = settings.policyOf(level);
                pending.timeoutNs = policy.toPolicy().timeoutNs(request.timeoutMicros());
                if (!limiter.tryAcquire(level))
                {
                    throw new InferenceException(ErrorCode.UNAVAILABLE, "[request id: " + idOf(request)
                        + "] Exceeds maximum queue size");
                }
            }
            else
            {
                limiter.tryAcquire(level);
                pending.timeoutNs = 0;
            }
            pending.batcherStartNs = System.nanoTime();
            queuedBatchSize.addAndGet(pending.batchSize);
            ring.publish(pending);
        }
        finally
        {
            admitting.decrementAndGet();
        }
        if (parked)
        {
            final long threshold = wakeThreshold;
            if (threshold == 0 || queuedBatchSize.get() >= threshold)
            {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * @return the total batch size of the requests accepted and not yet moved into a batch or answered (ring
     *         included); readable from any thread
     */
    public long queuedBatchSize()
    {
        return queuedBatchSize.get();
    }

    /**
     * Starts stopping: new requests are refused; the thread answers every queued request UNAVAILABLE and exits.
     * Batches already formed are left to the instances.
     */
    public void stop()
    {
        stopping = true;
        wakeAlways();
    }

    /** @return true once {@link #stop()} was called. */
    public boolean isStopping()
    {
        return stopping;
    }

    @Override
    public void run()
    {
        thread = Thread.currentThread();
        long nextSweepNs = 0;
        while (true)
        {
            ring.drain(intake);
            if (stopping)
            {
                shutDown();
                return;
            }
            if (levels.size() == 0)
            {
                idle(-1, 0);
                continue;
            }
            beforeSlotCheck.run();
            if (!payloads.slotAvailable())
            {
                final long now = System.nanoTime();
                if (now >= nextSweepNs || sweepRequested)
                {
                    sweepRequested = false;
                    final long earliest = rejectExpired(now);
                    sendEnded();
                    nextSweepNs = Math.min(now + SLOT_SWEEP_NS, earliest);
                }
                // With queue timeouts, an arrival wakes the batcher so that the sweep knows its deadline.
                idle(Math.max(ONE_MICRO, nextSweepNs - System.nanoTime()), hasTimeouts ? 0 : NO_WAKE);
                if (hasTimeouts)
                {
                    nextSweepNs = 0;
                }
                continue;
            }
            nextSweepNs = 0;
            // Requests published between the drain above and the slot check belong in this batch: in Triton,
            // Enqueue and batch formation share one lock, so a batcher that finds a free instance sees every request
            // enqueued before it. Without this second drain, a request published while the batcher was between the
            // two steps (e.g. just before the busy instance became free) would miss the batch and run in the next.
            ring.drain(intake);

            int payloadSize = 0;
            if (current != null)
            {
                if (current.isSaturated() || !current.tryLockForAppend())
                {
                    current = null;
                }
                else
                {
                    payloadSize = current.batchSize();
                }
            }
            long waitNs = 0;
            try
            {
                waitNs = settings.dynamic() ? formDynamicBatch(System.nanoTime(), payloadSize) : formDefaultBatch();
                if (waitNs == 0 && pendingCount > 0)
                {
                    dispatch(payloadSize);
                }
                else if (current != null && payloadSize > 0)
                {
                    if (saturateCurrent)
                    {
                        current.markSaturated();
                    }
                    current.unlockAfterAppend();
                }
            }
            catch (final RuntimeException | Error ex)
            {
                // A bug here must not leave a payload locked (instances would wait on it forever) nor kill the
                // thread that answers every queued request: close the payload to appends and carry on.
                LOG.log(System.Logger.Level.ERROR, "batcher of model '" + modelName + "' failed a pass", ex);
                if (current != null && payloadSize > 0)
                {
                    current.markSaturated();
                    current.unlockAfterAppend();
                }
                current = null;
                pendingCount = 0;
                pendingSize = 0;
            }
            sendEnded();
            if (waitNs > 0)
            {
                idle(waitNs, nextPreferredThreshold(payloadSize));
            }
        }
    }

    private void accept(final PendingRequest pending)
    {
        if (pending.timeoutNs != 0)
        {
            pending.deadlineNs = pending.acceptedNs + pending.timeoutNs;
        }
        levels.append(pending);
    }

    /** Triton's default scheduler: one request per batch, first-in first-out. */
    private long formDefaultBatch()
    {
        pendingCount = 0;
        pendingSize = 0;
        saturateCurrent = true;
        current = null;
        final long level = levels.first();
        final PolicyQueue queue = levels.queue(level);
        final RequestDeque deque = queue.queue.isEmpty() ? queue.delayed : queue.queue;
        final PendingRequest head = deque.get(0);
        if (head.request.isCancelled())
        {
            deque.pollFirst();
            leave(head);
            cancelled.add(head);
            return 0;
        }
        pendingCount = 1;
        pendingSize = head.batchSize;
        return 0;
    }

    /**
     * Triton's {@code GetDynamicBatch}: scans the queue from the head, applying queue policies, and decides what to
     * send now, or how long to wait.
     *
     * @param now         the current time
     * @param payloadSize batch size already in the current, still appendable payload ({@code P})
     * @return 0 to send the pending batch now (if any), else nanoseconds to wait
     */
    private long formDynamicBatch(final long now, final int payloadSize)
    {
        final int maxBatch = settings.maxBatchSize();
        pendingCount = 0;
        pendingSize = 0;
        saturateCurrent = false;
        int bestSize = 0;
        int bestCount = 0;
        boolean sendNow = false;
        long oldestStart = Long.MAX_VALUE;
        long earliestDeadline = Long.MAX_VALUE;
        PendingRequest reference = payloadSize > 0 ? current.get(0) : null;

        scan:
        for (long level = levels.first(); level >= 0; level = levels.next(level))
        {
            final PolicyQueue queue = levels.queue(level);
            for (int part = 0; part < 2; part++)
            {
                final RequestDeque deque = part == 0 ? queue.queue : queue.delayed;
                int index = 0;
                while (index < deque.size())
                {
                    final PendingRequest candidate = deque.get(index);
                    if (takeIfCancelled(deque, index, candidate))
                    {
                        continue;
                    }
                    if (part == 0 && candidate.deadlineNs != 0 && now > candidate.deadlineNs)
                    {
                        deque.removeAt(index);
                        if (queue.policy.delayOnTimeout())
                        {
                            candidate.deadlineNs = 0;
                            queue.delayed.addLast(candidate);
                        }
                        else
                        {
                            leave(candidate);
                            rejected.add(candidate);
                        }
                        continue;
                    }
                    if (payloadSize + pendingCount == 0)
                    {
                        reference = candidate;
                    }
                    else
                    {
                        final int grown = payloadSize + pendingSize + candidate.batchSize;
                        if (grown > maxPreferred && bestSize == 0)
                        {
                            bestSize = pendingSize;
                            bestCount = pendingCount;
                            saturateCurrent = true;
                        }
                        if (grown > maxBatch)
                        {
                            sendNow = true;
                            break scan;
                        }
                        if (!batchable(reference, candidate))
                        {
                            saturateCurrent = true;
                            sendNow = true;
                            break scan;
                        }
                    }
                    pendingSize += candidate.batchSize;
                    pendingCount++;
                    index++;
                    oldestStart = Math.min(oldestStart, candidate.batcherStartNs);
                    if (candidate.deadlineNs != 0)
                    {
                        earliestDeadline = Math.min(earliestDeadline, candidate.deadlineNs);
                    }
                    if (isPreferred(payloadSize + pendingSize))
                    {
                        bestSize = pendingSize;
                        bestCount = pendingCount;
                    }
                }
            }
        }

        final long maxDelay = settings.maxDelayNs();
        final long delay = pendingCount == 0 ? 0 : now - oldestStart;
        final boolean delayExceeded = maxDelay != 0 && delay >= maxDelay;
        if (bestSize != 0 && !delayExceeded)
        {
            pendingCount = bestCount;
            pendingSize = bestSize;
            if (maxDelay == 0)
            {
                saturateCurrent = true;
            }
            return 0;
        }
        if (pendingCount == 0)
        {
            return 0;
        }
        if (sendNow || payloadSize + pendingSize >= maxPreferred)
        {
            saturateCurrent = true;
            return 0;
        }
        if (delayExceeded || maxDelay == 0)
        {
            return 0;
        }
        if (payloadSize > 0 && !isPreferred(payloadSize))
        {
            return 0;
        }
        long waitNs = maxDelay - delay;
        if (earliestDeadline != Long.MAX_VALUE)
        {
            waitNs = Math.min(waitNs, earliestDeadline - now);
        }
        return Math.max(ONE_MICRO, waitNs);
    }

    /** Moves the pending batch, in queue order, into the current payload (or a new one) and hands it on. */
    private void dispatch(final int payloadSize)
    {
        // A locked current payload always holds requests (P > 0); otherwise start a new one.
        final boolean fresh = payloadSize == 0;
        if (fresh)
        {
            current = payloads.acquire();
        }
        int remaining = pendingCount;
        long level = levels.first();
        while (remaining > 0 && level >= 0)
        {
            final PolicyQueue queue = levels.queue(level);
            while (remaining > 0 && !queue.isEmpty())
            {
                final PendingRequest next = queue.pollFirst();
                leave(next);
                if (settings.preserveOrdering())
                {
                    next.orderSequence = nextOrderSequence++;
                }
                current.add(next);
                remaining--;
            }
            level = levels.next(level);
        }
        if (saturateCurrent || current.batchSize() >= settings.maxBatchSize())
        {
            current.markSaturated();
        }
        if (fresh)
        {
            payloads.enqueue(current);
        }
        else
        {
            current.unlockAfterAppend();
        }
        pendingCount = 0;
        pendingSize = 0;
    }

    /** Takes a cancelled request out of its queue, to be answered CANCELLED; false when it is not cancelled. */
    private boolean takeIfCancelled(final RequestDeque deque, final int index, final PendingRequest candidate)
    {
        if (!candidate.request.isCancelled())
        {
            return false;
        }
        deque.removeAt(index);
        leave(candidate);
        cancelled.add(candidate);
        return true;
    }

    /** Removes a request's accounting when it leaves the level queues (into a batch, or answered). */
    private void leave(final PendingRequest request)
    {
        levels.removed(request.level);
        limiter.release(request.level);
        queuedBatchSize.addAndGet(-request.batchSize);
    }

    /**
     * The sweep that runs while no instance is free: answers cancelled requests and rejects expired requests of
     * REJECT levels, so that neither waits for an instance (Triton sweeps REJECT levels every 500 ms).
     *
     * @return the earliest remaining deadline, or {@code Long.MAX_VALUE}
     */
    private long rejectExpired(final long now)
    {
        long earliest = Long.MAX_VALUE;
        for (long level = levels.first(); level >= 0; level = levels.next(level))
        {
            final PolicyQueue queue = levels.queue(level);
            final boolean reject = !queue.policy.delayOnTimeout();
            for (int part = 0; part < 2; part++)
            {
                final RequestDeque deque = part == 0 ? queue.queue : queue.delayed;
                int index = 0;
                while (index < deque.size())
                {
                    final PendingRequest candidate = deque.get(index);
                    if (takeIfCancelled(deque, index, candidate))
                    {
                        continue;
                    }
                    if (reject && candidate.deadlineNs != 0)
                    {
                        if (now > candidate.deadlineNs)
                        {
                            deque.removeAt(index);
                            leave(candidate);
                            rejected.add(candidate);
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

    private void sendEnded()
    {
        for (int i = 0; i < rejected.size(); i++)
        {
            completer.fail(rejected.get(i), ErrorCode.UNAVAILABLE, "Request timeout expired",
                FailureReason.REJECTED);
        }
        rejected.clear();
        for (int i = 0; i < cancelled.size(); i++)
        {
            completer.fail(cancelled.get(i), ErrorCode.CANCELLED, "[request id: " + idOf(cancelled.get(i).request)
                + "] Request for model '" + modelName + "' was cancelled", FailureReason.CANCELED);
        }
        cancelled.clear();
    }

    private boolean isPreferred(final int size)
    {
        final int[] preferred = settings.preferredSizes();
        for (int i = 0; i < preferred.length; i++)
        {
            if (preferred[i] == size)
            {
                return true;
            }
        }
        return false;
    }

    private long nextPreferredThreshold(final int payloadSize)
    {
        final int[] preferred = settings.preferredSizes();
        if (preferred.length == 0)
        {
            return 0;
        }
        final int total = payloadSize + pendingSize;
        int next = preferred[0];
        for (int i = 0; i < preferred.length; i++)
        {
            if (preferred[i] > total)
            {
                next = preferred[i];
                break;
            }
        }
        return Math.max(1, next - payloadSize);
    }

    /** Triton's shape checks (§2.10): -1 dims without ragged batching, shape-tensor contents, optional-input sets. */
    private boolean batchable(final PendingRequest reference, final PendingRequest candidate)
    {
        if (reference == null)
        {
            return true;
        }
        if (settings.optionalInputs() && reference.presentInputs != candidate.presentInputs)
        {
            return false;
        }
        final int firstDim = batchDimension ? 1 : 0;
        for (final int configIndex : settings.shapeChecked())
        {
            final int a = reference.inputIndexByConfig[configIndex];
            final int b = candidate.inputIndexByConfig[configIndex];
            if (a < 0 || b < 0)
            {
                if (a != b)
                {
                    return false;
                }
                continue;
            }
            final InferenceRequest ra = reference.request;
            final InferenceRequest rb = candidate.request;
            final int rank = ra.inputRank(a);
            if (rank != rb.inputRank(b))
            {
                return false;
            }
            for (int d = firstDim; d < rank; d++)
            {
                if (ra.inputDim(a, d) != rb.inputDim(b, d))
                {
                    return false;
                }
            }
        }
        for (final int configIndex : settings.contentChecked())
        {
            final int a = reference.inputIndexByConfig[configIndex];
            final int b = candidate.inputIndexByConfig[configIndex];
            if (a >= 0 && b >= 0)
            {
                final MemorySegment da = reference.request.inputData(a);
                final MemorySegment db = candidate.request.inputData(b);
                if (da.byteSize() != db.byteSize() || da.mismatch(db) != -1)
                {
                    return false;
                }
            }
        }
        return true;
    }

    private void idle(final long waitNs, final long threshold)
    {
        wakeThreshold = threshold;
        parked = true;
        try
        {
            if (!ring.isEmpty() || stopping)
            {
                return;
            }
            final long deadline = waitNs < 0 ? Long.MAX_VALUE : System.nanoTime() + waitNs;
            switch (idleMode)
            {
                case SPINNING ->
                {
                    while (ring.isEmpty() && !stopping && System.nanoTime() < deadline && !wakeRequested)
                    {
                        Thread.onSpinWait();
                    }
                }
                case BACKOFF ->
                {
                    for (int i = 0; i < 200 && ring.isEmpty() && !stopping && !wakeRequested
                        && System.nanoTime() < deadline; i++)
                    {
                        if (i < 100)
                        {
                            Thread.onSpinWait();
                        }
                        else
                        {
                            Thread.yield();
                        }
                    }
                    park(waitNs < 0 ? -1 : deadline - System.nanoTime());
                }
                default -> park(waitNs);
            }
        }
        finally
        {
            parked = false;
            wakeRequested = false;
        }
    }

    private volatile boolean wakeRequested;

    private void park(final long waitNs)
    {
        if (!ring.isEmpty() || stopping || wakeRequested)
        {
            return;
        }
        if (waitNs < 0)
        {
            LockSupport.park(this);
        }
        else if (waitNs > 0)
        {
            LockSupport.parkNanos(this, waitNs);
        }
    }

    private void wakeAlways()
    {
        wakeRequested = true;
        final Thread t = thread;
        if (t != null && parked)
        {
            LockSupport.unpark(t);
        }
    }

    private void shutDown()
    {
        while (admitting.get() > 0)
        {
            Thread.onSpinWait();
        }
        ring.drain(intake);
        if (current != null)
        {
            current = null;
        }
        for (long level = levels.first(); level >= 0; level = levels.first())
        {
            final PolicyQueue queue = levels.queue(level);
            while (!queue.isEmpty())
            {
                final PendingRequest next = queue.pollFirst();
                leave(next);
                completer.fail(next, ErrorCode.UNAVAILABLE, "[request id: " + idOf(next.request)
                    + "] Server is stopping, scheduler for model has stopped accepting new inference requests",
                    FailureReason.OTHER);
            }
        }
    }

    private static String idOf(final InferenceRequest request)
    {
        final String id = request.id();
        return id.isEmpty() ? "<id_unknown>" : id;
    }
}
