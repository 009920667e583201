package io.ingot.scheduler;

import java.util.BitSet;
import java.util.TreeMap;

/**
 * The priority levels of one batcher, iterated from the highest priority (the lowest number). Dense (an array and a
 * bit set of non-empty levels) for up to 4096 levels; sparse (a sorted map of the non-empty levels) beyond, which
 * keeps huge {@code priority_levels} values cheap as Triton's lazily created levels do. Batcher thread only.
 */
final class LevelTable
{
    private static final int DENSE_LEVELS = 4096;

    private final SchedulerSettings settings;
    private final PolicyQueue[] dense;
    private final BitSet nonEmpty;
    private final TreeMap<Long, PolicyQueue> sparse;
    private int totalSize;

    LevelTable(final SchedulerSettings settings)
    {
        this.settings = settings;
        if (settings.priorityLevels() <= DENSE_LEVELS)
        {
            final int levels = (int)settings.priorityLevels() + 1;
            dense = new PolicyQueue[levels];
            for (int level = 0; level < levels; level++)
            {
                dense[level] = new PolicyQueue(settings.policyOf(level).toPolicy());
            }
            nonEmpty = new BitSet(levels);
            sparse = null;
        }
        else
        {
            dense = null;
            nonEmpty = null;
            sparse = new TreeMap<>();
        }
    }

    /** @return the number of queued requests (unexpired and delayed) over all levels. */
    int size()
    {
        return totalSize;
    }

    /** @return the first non-empty level, or -1. */
    long first()
    {
        if (dense != null)
        {
            return nonEmpty.nextSetBit(0);
        }
        return sparse.isEmpty() ? -1 : sparse.firstKey();
    }

    /**
     * @param level a level
     * @return the next non-empty level after it, or -1
     */
    long next(final long level)
    {
        if (dense != null)
        {
            return nonEmpty.nextSetBit((int)level + 1);
        }
        final Long next = sparse.higherKey(level);
        return next == null ? -1 : next;
    }

    /**
     * @param level a non-empty level (or one about to get a request)
     * @return its queue, created on first use
     */
    PolicyQueue queue(final long level)
    {
        if (dense != null)
        {
            return dense[(int)level];
        }
        PolicyQueue queue = sparse.get(level);
        if (queue == null)
        {
            queue = new PolicyQueue(settings.policyOf(level).toPolicy());
            sparse.put(level, queue);
        }
        return queue;
    }

    /** Appends a request to the unexpired queue of its level. */
    void append(final PendingRequest request)
    {
        queue(request.level).queue.addLast(request);
        markNonEmpty(request.level);
        totalSize++;
    }

    /** Records that a request left a level's queues. */
    void removed(final long level)
    {
        totalSize--;
        if (dense != null)
        {
            if (dense[(int)level].isEmpty())
            {
                nonEmpty.clear((int)level);
            }
        }
        else
        {
            final PolicyQueue queue = sparse.get(level);
            if (queue != null && queue.isEmpty())
            {
                sparse.remove(level);
            }
        }
    }

    private void markNonEmpty(final long level)
    {
        if (dense != null)
        {
            nonEmpty.set((int)level);
        }
    }
}
