package io.ingot.scheduler;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Enforces {@code max_queue_size} per priority level at the caller, so that a full queue is rejected synchronously
 * as Triton does. Counts requests accepted and not yet moved into a batch (or answered).
 */
final class QueueLimiter
{
    private static final int DENSE_LEVELS = 4096;

    private final SchedulerSettings settings;
    private final AtomicIntegerArray denseCounts;
    private final int[] denseLimits;
    private final ConcurrentHashMap<Long, AtomicInteger> sparseCounts;

    QueueLimiter(final SchedulerSettings settings)
    {
        this.settings = settings;
        if (settings.priorityLevels() <= DENSE_LEVELS)
        {
            final int levels = (int)settings.priorityLevels() + 1;
            denseCounts = new AtomicIntegerArray(levels);
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
            sparseCounts = new ConcurrentHashMap<>();
        }
    }

    /**
     * Counts one more request at a level, unless the level is full.
     *
     * @param level the level
     * @return false when the level is full
     */
    boolean tryAcquire(final long level)
    {
        if (denseCounts != null)
        {
            final int index = (int)level;
            final int limit = denseLimits[index];
            if (limit == 0)
            {
                denseCounts.incrementAndGet(index);
                return true;
            }
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
        final AtomicInteger count = sparseCounts.computeIfAbsent(level, key -> new AtomicInteger());
        while (true)
        {
            final int current = count.get();
            if (limit != 0 && current >= limit)
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
     * Counts one request less at a level.
     *
     * @param level the level
     */
    void release(final long level)
    {
        if (denseCounts != null)
        {
            denseCounts.decrementAndGet((int)level);
        }
        else
        {
            sparseCounts.get(level).decrementAndGet();
        }
    }
}
