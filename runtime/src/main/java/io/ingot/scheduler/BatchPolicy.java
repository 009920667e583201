package io.ingot.scheduler;

import io.ingot.time.NanoClock;

/**
 * Batch formation as a pure, single-threaded state machine: it holds one model version's queued requests and, when an
 * instance is free, decides — dispatch this batch to that instance, or wait until a time. It reads no clock (the
 * caller passes {@code now} from an injected {@link NanoClock}), starts no thread, never blocks and calls no user
 * code, so every decision can be tested deterministically, and whichever thread holds the model's batching role can
 * run it.
 *
 * <p>Implementations: {@link DynamicBatchPolicy} (Triton's dynamic batcher), {@link DefaultSchedulingPolicy}
 * (Triton's default scheduler), the sequence batchers, and the adaptive policies {@link AdaptiveBatchPolicy}
 * (SLO-aware, learned execution times) and {@link AimdBatchPolicy} (Clipper's additive-increase,
 * multiplicative-decrease).
 *
 * <p>Threads: one thread at a time — the holder of the model's batching role; the role's hand-over orders one
 * holder's calls before the next holder's.
 */
public interface BatchPolicy
{
    /** {@link #decide}: nothing is queued (or everything queued was ended); wait for an arrival. */
    int EMPTY = 0;
    /** {@link #decide}: the batch holds the requests to run now. */
    int DISPATCH = 1;
    /** {@link #decide}: wait for an arrival, or until {@link FormedBatch#waitUntilNs()}, and ask again. */
    int WAIT = 2;
    /**
     * {@link #decide}: nothing here for the asking instance, but instance {@link FormedBatch#yieldTo()} has work only
     * it may run (a sequence batcher's slots belong to one instance): give it the role.
     */
    int YIELD = 3;
    /** {@link #sweep}: no deadline is pending. */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Takes an accepted request into the queues, in arrival order.
     *
     * @param request the request, with its level, batch size, timeout and acceptance time filled in
     */
    void enqueue(PendingRequest request);

    /**
     * An instance is free: decides what it runs now.
     *
     * @param nowNs    the current time
     * @param instance the free instance's index among the model's instances
     * @param batch    receives the batch ({@link #DISPATCH}) or the time to ask again ({@link #WAIT}); cleared first
     * @param ended    receives the requests that ended while deciding (timed out under REJECT); cancelled requests
     *                 are ended by {@link #sweep}, which the role holder runs before deciding whenever a cancellation
     *                 asked for one (a policy need not look for them here)
     * @return {@link #EMPTY}, {@link #DISPATCH}, {@link #WAIT} or {@link #YIELD}
     */
    int decide(long nowNs, int instance, FormedBatch batch, EndedRequests ended);

    /**
     * Housekeeping, so that requests that must be answered are answered on time: ends cancelled requests and requests
     * whose queue timeout expired under a REJECT policy. The timekeeper sweeps while no instance is free; the role
     * holder sweeps before {@link #decide} when a cancellation asked for a sweep.
     *
     * @param nowNs the current time
     * @param ended receives the ended requests
     * @return when the next REJECT deadline passes, or {@link #NO_DEADLINE}
     */
    long sweep(long nowNs, EndedRequests ended);

    /**
     * Ends every queued request (the model is stopping).
     *
     * @param ended receives them, each with {@link Ending#STOPPING}
     */
    void drain(EndedRequests ended);

    /** @return the number of queued requests */
    int queuedRequests();

    /**
     * Whether the batch the next {@link #decide} forms is settled by what is queued already, whatever arrives later:
     * the requests are dispatched in arrival order (one priority level, no queue timeouts) and the queue holds a full
     * batch. The role holder then leaves newer arrivals in the intake ring until the queue runs short, and drains them
     * many at a time: each drain of a request just published reads a line its producer is still writing.
     *
     * @return true only when no later arrival can change the next batch; false by default
     */
    default boolean holdsNextBatch()
    {
        return false;
    }

    /**
     * Whether the policy keeps deadlines of its own that must be kept while every instance is busy — a sequence
     * batcher's idle sequences and backlog timeouts — so that the timekeeper sweeps it, and whether a request's own
     * timeout reaches it without a dynamic batcher's queue policy.
     *
     * @return true for such a policy; the dynamic batcher's REJECT timeouts are known from its settings instead
     */
    default boolean keepsTime()
    {
        return false;
    }

    /**
     * Whether the policy learns from executed batches: then the instance that ran a batch reports it through
     * {@link #executed} before it next asks for one. Asked once, at construction of the scheduler; a policy that
     * answers false costs the instance path nothing (not even reading the clock).
     *
     * @return true for a policy that wants {@link #executed}
     */
    default boolean learnsExecution()
    {
        return false;
    }

    /**
     * Feedback: an instance finished a batch. Called by the holder of the batching role (the instance reports it
     * once it holds the role again), so the policy stays single-threaded; at most one report per instance is pending.
     * Must not allocate.
     *
     * @param instance   the instance's index
     * @param batchSize  the batch's total batch size
     * @param durationNs how long the instance took, from the dispatch to the last response delivered
     */
    default void executed(final int instance, final int batchSize, final long durationNs)
    {
    }
}
