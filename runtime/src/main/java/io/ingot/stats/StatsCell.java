package io.ingot.stats;

import io.ingot.api.FailureReason;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One writer's share of a model version's counters, laid out in one {@code long[]} (see {@link StatsLayout}). A
 * single-writer cell (an instance's own) adds with plain reads and opaque writes — no read-modify-write, no shared
 * cache line; a shared cell (for the rare writers that are not an instance: the timekeeper, a refused submission) adds
 * atomically. Readers sum every cell ({@link ModelStatsRecorder#snapshot}).
 *
 * <p>An instance records one batch — its execution and each of its requests — between {@link #beginUpdate()} and
 * {@link #endUpdate()}, a single-writer sequence lock: {@link #copyTo} retries while a batch is being recorded, so a
 * reader sees every counter of a batch or none. Without it a reader could see an execution without its inferences,
 * and an average batch size taken from two snapshots (what {@code ingot perf} and perf_analyzer compute) would be off
 * by an in-flight batch.
 */
public final class StatsCell
{
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle SEQUENCE;

    static
    {
        try
        {
            SEQUENCE = MethodHandles.lookup().findVarHandle(StatsCell.class, "sequence", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long[] counters;
    private final boolean shared;
    private final StatsLayout layout;
    /** Odd while the writer records a batch. */
    @SuppressWarnings("unused")
    private volatile long sequence;

    StatsCell(final StatsLayout layout, final boolean shared)
    {
        this.layout = layout;
        this.counters = new long[layout.length()];
        this.shared = shared;
    }

    /**
     * One execution finished, successful or not.
     *
     * @param batchSize its total batch size
     * @param inputNs   input assembly time
     * @param inferNs   engine time
     * @param outputNs  output scatter time
     * @param nowMillis the wall-clock time, for Triton's {@code last_inference}
     */
    public void batchExecuted(final int batchSize, final long inputNs, final long inferNs, final long outputNs,
        final long nowMillis)
    {
        add(StatsLayout.EXECUTIONS, 1);
        if (nowMillis > read(StatsLayout.LAST_INFERENCE))
        {
            LONGS.setOpaque(counters, StatsLayout.LAST_INFERENCE, nowMillis);
        }
        final int base = layout.batchBase(batchSize);
        add(base, 1);
        add(base + 1, inputNs);
        add(base + 2, inferNs);
        add(base + 3, outputNs);
    }

    /**
     * A request succeeded.
     *
     * @param batchSize {@code max(1, batch size)} of the request
     * @param requestNs accept to response
     * @param queueNs   accept to compute start
     * @param inputNs   its batch's input time
     * @param inferNs   its batch's engine time
     * @param outputNs  its batch's output time
     */
    public void requestSucceeded(final int batchSize, final long requestNs, final long queueNs, final long inputNs,
        final long inferNs, final long outputNs)
    {
        addSucceeded(1, batchSize, requestNs, queueNs, requestNs / 1000, queueNs / 1000);
        addComputeTimes(1, inputNs, inferNs, outputNs);
    }

    /**
     * The successful requests of one batch, in one update: the same counters as {@link #requestSucceeded} for each of
     * them, added once. Nothing when none succeeded.
     *
     * @param succeeded their sums
     * @param inputNs   the batch's input time
     * @param inferNs   the batch's engine time
     * @param outputNs  the batch's output time
     */
    public void requestsSucceeded(final SucceededRequests succeeded, final long inputNs, final long inferNs,
        final long outputNs)
    {
        final int requests = succeeded.requests;
        if (requests == 0)
        {
            return;
        }
        addSucceeded(requests, succeeded.inferences, succeeded.requestNs, succeeded.queueNs, succeeded.requestMicros,
            succeeded.queueMicros);
        addComputeTimes(requests, inputNs, inferNs, outputNs);
    }

    /** {@code requests} successes: their request and queue durations, summed, and their whole microseconds. */
    private void addSucceeded(final int requests, final long inferences, final long requestNs, final long queueNs,
        final long requestMicros, final long queueMicros)
    {
        addDurations(StatsLayout.SUCCESS, requests, requestNs);
        addDurations(StatsLayout.QUEUE, requests, queueNs);
        add(StatsLayout.MICROS, requestMicros);
        add(StatsLayout.MICROS + 1, queueMicros);
        add(StatsLayout.INFERENCES, inferences);
    }

    /** Each of {@code requests} requests spent its batch's compute phases: their durations and whole microseconds. */
    private void addComputeTimes(final int requests, final long inputNs, final long inferNs, final long outputNs)
    {
        addDurations(StatsLayout.INPUT, requests, requests * inputNs);
        addDurations(StatsLayout.INFER, requests, requests * inferNs);
        addDurations(StatsLayout.OUTPUT, requests, requests * outputNs);
        add(StatsLayout.MICROS + 2, requests * (inputNs / 1000));
        add(StatsLayout.MICROS + 3, requests * (inferNs / 1000));
        add(StatsLayout.MICROS + 4, requests * (outputNs / 1000));
    }

    /**
     * A request was answered from the response cache: it counts as a success with its queue time (Triton's
     * statistics include hits in both), and as a cache hit with the lookup's time; no compute time.
     *
     * @param requestNs accept to response
     * @param lookupNs  the lookup and the copy out of the cache
     */
    public void cacheHit(final long requestNs, final long lookupNs)
    {
        addDuration(StatsLayout.SUCCESS, requestNs);
        addDuration(StatsLayout.QUEUE, 0);
        addDuration(StatsLayout.CACHE_HIT, lookupNs);
        add(StatsLayout.MICROS, requestNs / 1000);
    }

    /**
     * A cacheable request missed and its response was offered to the cache.
     *
     * @param ns the lookup and the insert
     */
    public void cacheMiss(final long ns)
    {
        addDuration(StatsLayout.CACHE_MISS, ns);
    }

    /**
     * A request failed.
     *
     * @param requestNs accept to response
     * @param reason    why
     */
    public void requestFailed(final long requestNs, final FailureReason reason)
    {
        addDuration(StatsLayout.FAIL, requestNs);
        add(StatsLayout.FAILURES + reason.ordinal(), 1);
    }

    /** Writer (single-writer cells only): a batch's counters follow; readers wait for {@link #endUpdate()}. */
    public void beginUpdate()
    {
        if (!shared)
        {
            SEQUENCE.setOpaque(this, (long)SEQUENCE.getOpaque(this) + 1);
            VarHandle.storeStoreFence();
        }
    }

    /** Writer: the batch's counters are all written. */
    public void endUpdate()
    {
        if (!shared)
        {
            SEQUENCE.setRelease(this, (long)SEQUENCE.getOpaque(this) + 1);
        }
    }

    /**
     * Copies every counter, none of them from a half-recorded batch (any thread).
     *
     * @param into receives the counters; at least {@code layout.length()} long
     */
    void copyTo(final long[] into)
    {
        if (shared)
        {
            copyCounters(into);
            return;
        }
        while (true)
        {
            final long before = (long)SEQUENCE.getAcquire(this);
            if ((before & 1) == 0)
            {
                copyCounters(into);
                VarHandle.loadLoadFence();
                if ((long)SEQUENCE.getOpaque(this) == before)
                {
                    return;
                }
            }
            Thread.onSpinWait();
        }
    }

    private void copyCounters(final long[] into)
    {
        for (int i = 0; i < counters.length; i++)
        {
            into[i] = (long)LONGS.getOpaque(counters, i);
        }
    }

    private long read(final int index)
    {
        return (long)LONGS.getOpaque(counters, index);
    }

    private void addDuration(final int kind, final long ns)
    {
        addDurations(kind, 1, ns);
    }

    private void addDurations(final int kind, final long count, final long ns)
    {
        add(StatsLayout.DURATIONS + kind * 2, count);
        add(StatsLayout.DURATIONS + kind * 2 + 1, ns);
    }

    private void add(final int index, final long delta)
    {
        if (shared)
        {
            LONGS.getAndAdd(counters, index, delta);
        }
        else
        {
            LONGS.setOpaque(counters, index, counters[index] + delta);
        }
    }
}
