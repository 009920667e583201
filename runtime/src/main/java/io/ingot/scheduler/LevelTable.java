package io.ingot.scheduler;

import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The priority levels of one model version, iterated from the highest priority (the lowest number). Dense (an array
 * and a bit set of the non-empty levels) for up to {@value #DENSE_LEVELS} levels; sparse beyond (a map of the
 * non-empty levels, ordered as unsigned numbers), which keeps huge {@code priority_levels} values cheap, as Triton's
 * lazily created levels do. Owned by the holder of the batching role.
 */
final class LevelTable
{
    static final int DENSE_LEVELS = 4096;

    private final SchedulerSettings settings;
    private final PolicyQueue[] dense;
    private final BitSet nonEmpty;
    private final TreeMap<Long, PolicyQueue> sparse;
    private int totalSize;

    LevelTable(final SchedulerSettings settings)
    {
        this.settings = settings;
        if (isDense(settings))
        {
            final int levels = (int)settings.priorityLevels() + 1;
            dense = new PolicyQueue[levels];
            for (int level = 0; level < levels; level++)
            {
                dense[level] = new PolicyQueue(level, settings.policyOf(level));
            }
            nonEmpty = new BitSet(levels);
            sparse = null;
        }
        else
        {
            dense = null;
            nonEmpty = null;
            sparse = new TreeMap<>(Long::compareUnsigned);
        }
    }

    /**
     * @param settings a model's settings
     * @return whether its levels are few enough for arrays indexed by level
     */
    static boolean isDense(final SchedulerSettings settings)
    {
        return Long.compareUnsigned(settings.priorityLevels(), DENSE_LEVELS) <= 0
            && Long.compareUnsigned(settings.defaultLevel(), settings.priorityLevels()) <= 0;
    }

    /** @return the number of queued requests (unexpired and delayed) over all levels */
    int size()
    {
        return totalSize;
    }

    /** @return the highest-priority non-empty level's queue, or {@code null} */
    PolicyQueue first()
    {
        if (dense != null)
        {
            final int level = nonEmpty.nextSetBit(0);
            return level < 0 ? null : dense[level];
        }
        final Map.Entry<Long, PolicyQueue> first = sparse.firstEntry();
        return first == null ? null : first.getValue();
    }

    /**
     * @param queue a non-empty level's queue
     * @return the next non-empty level's queue after it, or {@code null}
     */
    PolicyQueue next(final PolicyQueue queue)
    {
        if (dense != null)
        {
            final int level = nonEmpty.nextSetBit((int)queue.level + 1);
            return level < 0 ? null : dense[level];
        }
        final Map.Entry<Long, PolicyQueue> next = sparse.higherEntry(queue.level);
        return next == null ? null : next.getValue();
    }

    /** Appends a request to the unexpired queue of its level. */
    void append(final PendingRequest request)
    {
        final long level = request.level;
        final PolicyQueue queue;
        if (dense != null)
        {
            queue = dense[(int)level];
            nonEmpty.set((int)level);
        }
        else
        {
            PolicyQueue existing = sparse.get(level);
            if (existing == null)
            {
                existing = new PolicyQueue(level, settings.policyOf(level));
                sparse.put(level, existing);
            }
            queue = existing;
        }
        queue.queue.addLast(request);
        totalSize++;
    }

    /** Records that a request left a level's queues (after it was removed from them). */
    void removed(final PolicyQueue queue)
    {
        totalSize--;
        if (queue.isEmpty())
        {
            if (dense != null)
            {
                nonEmpty.clear((int)queue.level);
            }
            else
            {
                sparse.remove(queue.level);
            }
        }
    }
}
