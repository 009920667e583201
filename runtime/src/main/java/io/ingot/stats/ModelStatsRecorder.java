package io.ingot.stats;

import io.ingot.api.BatchStatistics;
import io.ingot.api.FailureReason;
import io.ingot.api.InferStatistics;
import io.ingot.api.ModelStatistics;
import io.ingot.api.StatDuration;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Counts one model version's requests and executions the way Triton does (statistics extension §5, metrics §4 of
 * {@code triton-scheduling.md}): queue counts equal success counts; each request is charged its batch's full compute
 * durations; batch statistics count each execution once at its total batch size; pending requests are those accepted
 * and not yet executing.
 *
 * <p>Counting costs no shared write on the hot path: each instance writes its own {@link #cell(int) cell} (plain
 * adds, published opaquely), and the rare other writers share one atomic cell. {@link #snapshot} sums copies of the
 * cells, each copy taken whole between two of its instance's batches: a snapshot holds every counter of a batch or
 * none of them. Thread-safe.
 */
public final class ModelStatsRecorder
{
    private final StatsLayout layout;
    private final StatsCell[] cells;
    private final StatsCell shared;
    private final LongSupplier pending;

    /**
     * @param maxBatchSize the largest total batch size an execution can have
     * @param instances    how many instances write cells of their own
     * @param pending      how many requests are accepted and not yet executing, read at each snapshot
     */
    public ModelStatsRecorder(final int maxBatchSize, final int instances, final LongSupplier pending)
    {
        this.layout = new StatsLayout(maxBatchSize);
        this.cells = new StatsCell[instances];
        for (int i = 0; i < instances; i++)
        {
            cells[i] = new StatsCell(layout, false);
        }
        this.shared = new StatsCell(layout, true);
        this.pending = pending;
    }

    /**
     * @param instance an instance's index
     * @return its own cell: written by that instance's thread only
     */
    public StatsCell cell(final int instance)
    {
        return cells[instance];
    }

    /** @return the cell any thread may write (atomically): for requests ended outside an instance */
    public StatsCell shared()
    {
        return shared;
    }

    /**
     * @param name    model name
     * @param version version string
     * @return the sum of every cell, each copied whole (no batch half-counted)
     */
    public ModelStatistics snapshot(final String name, final String version)
    {
        final long[] total = new long[layout.length()];
        final long[] copy = new long[layout.length()];
        long lastInference = 0;
        shared.copyTo(copy);
        add(copy, total);
        for (final StatsCell cell : cells)
        {
            cell.copyTo(copy);
            add(copy, total);
            lastInference = Math.max(lastInference, copy[StatsLayout.LAST_INFERENCE]);
        }
        final InferStatistics inference = new InferStatistics(duration(total, StatsLayout.SUCCESS),
            duration(total, StatsLayout.FAIL), duration(total, StatsLayout.QUEUE), duration(total, StatsLayout.INPUT),
            duration(total, StatsLayout.INFER), duration(total, StatsLayout.OUTPUT),
            duration(total, StatsLayout.CACHE_HIT), duration(total, StatsLayout.CACHE_MISS));
        final List<BatchStatistics> batchStats = new ArrayList<>();
        for (int size = 1; size <= layout.maxBatchSize(); size++)
        {
            final int base = layout.batchBase(size);
            final long count = total[base];
            if (count > 0)
            {
                batchStats.add(new BatchStatistics(size, new StatDuration(count, total[base + 1]),
                    new StatDuration(count, total[base + 2]), new StatDuration(count, total[base + 3])));
            }
        }
        final Map<FailureReason, Long> failed = new EnumMap<>(FailureReason.class);
        for (final FailureReason reason : FailureReason.values())
        {
            failed.put(reason, total[StatsLayout.FAILURES + reason.ordinal()]);
        }
        final Map<String, Long> microsByKind = Map.of("request", total[StatsLayout.MICROS],
            "queue", total[StatsLayout.MICROS + 1], "compute_input", total[StatsLayout.MICROS + 2],
            "compute_infer", total[StatsLayout.MICROS + 3], "compute_output", total[StatsLayout.MICROS + 4]);
        return new ModelStatistics(name, version, lastInference, total[StatsLayout.INFERENCES],
            total[StatsLayout.EXECUTIONS], inference, List.copyOf(batchStats), failed, pending.getAsLong(),
            microsByKind);
    }

    /** @return requests accepted and not yet executing */
    public long pendingRequests()
    {
        return pending.getAsLong();
    }

    private static void add(final long[] counters, final long[] total)
    {
        for (int i = 0; i < total.length; i++)
        {
            total[i] += counters[i];
        }
    }

    private static StatDuration duration(final long[] total, final int kind)
    {
        return new StatDuration(total[StatsLayout.DURATIONS + kind * 2], total[StatsLayout.DURATIONS + kind * 2 + 1]);
    }
}
