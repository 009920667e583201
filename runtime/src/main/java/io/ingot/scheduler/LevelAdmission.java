package io.ingot.scheduler;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Enforces {@code max_queue_size} per priority level at the caller, so that a full queue is refused synchronously and
 * exactly, as Triton does under its scheduler lock: a level's count is the requests accepted at it and not yet moved
 * into a batch or ended.
 *
 * <p>Cost: a level without a limit costs nothing (no shared write); a limited level costs the submitting thread one
 * compare-and-set on that level's own cache line — the cheapest exact form of the check — and the policy one
 * decrement when the request leaves the queue. Thread-safe.
 */
public final class LevelAdmission
{
    /** Ints per counter: one counter per 64-byte cache line. */
    private static final int STRIDE = 16;

    private final SchedulerSettings settings;
    private final boolean anyLimit;
    private final AtomicIntegerArray denseCounts;
    private final int[] denseLimits;
    private final ConcurrentHashMap<Long, AtomicInteger> sparseCounts;

    /**
     * @param settings the model's scheduling settings
     */
    public LevelAdmission(final SchedulerSettings settings)
    {
        this.settings = settings;
        boolean limited = settings.defaultPolicy().maxQueueSize() > 0;
        for (final QueuePolicy policy : settings.levelPolicies().values())
        {
            limited |= policy.maxQueueSize() > 0;
        }
        this.anyLimit = settings.dynamic() && limited;
        if (anyLimit && LevelTable.isDense(settings))
        {
            final int levels = (int)settings.priorityLevels() + 1;
            denseCounts = new AtomicIntegerArray(levels * STRIDE);
            denseLimits = new int[levels];
            for (int level = 0; level < levels; level++)
            {
                denseLimits[level] = settings.policyOf(level).maxQueueSize();
            }
            sparseCounts = null;
        }
        else
        {
            denseCounts = null;
            denseLimits = null;
            sparseCounts = anyLimit ? new ConcurrentHashMap<>() : null;
        }
    }

    /**
     * Counts one more request at a level, unless the level is full (submitting threads).
     *
     * @param level the request's level
     * @return false when the level is full
     */
    public boolean tryAdmit(final long level)
    {
        if (!anyLimit)
        {
            return true;
        }
        if (denseCounts != null)
        {
            final int limit = denseLimits[(int)level];
            if (limit == 0)
            {
                return true;
            }
            final int index = (int)level * STRIDE;
            while (true)
            {
                final int current = denseCounts.get(index);
                if (current >= limit)
                {
                    return false;
                }
                if (denseCounts.compareAndSet(index, current, current + 1))
                {
                    return true;
                }
            }
        }
        final int limit = settings.policyOf(level).maxQueueSize();
        if (limit == 0)
        {
            return true;
        }
        final AtomicInteger count = sparseCounts.computeIfAbsent(level, key -> new AtomicInteger());
        while (true)
        {
            final int current = count.get();
            if (current >= limit)
            {
                return false;
            }
            if (count.compareAndSet(current, current + 1))
            {
                return true;
            }
        }
    }

    /**
     * Counts one request less at a level: it left the queue (into a batch, or ended), or its submission failed after
     * it was admitted.
     *
     * @param level the request's level
     */
    public void release(final long level)
    {
        if (!anyLimit)
        {
            return;
        }
        if (denseCounts != null)
        {
            if (denseLimits[(int)level] != 0)
            {
                denseCounts.decrementAndGet((int)level * STRIDE);
            }
            return;
        }
        if (settings.policyOf(level).maxQueueSize() != 0)
        {
            sparseCounts.get(level).decrementAndGet();
        }
    }
}
