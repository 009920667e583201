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
 * adds, published opaquely), and the rare other writers share one atomic cell. {@link #snapshot} sums the cells;
 * each counter is read once, so a snapshot taken under load is consistent per counter, not across them. Thread-safe.
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
     * @return the sum of every cell (each counter read once)
     */
    public ModelStatistics snapshot(final String name, final String version)
    {
        final InferStatistics inference = new InferStatistics(duration(StatsLayout.SUCCESS),
            duration(StatsLayout.FAIL), duration(StatsLayout.QUEUE), duration(StatsLayout.INPUT),
            duration(StatsLayout.INFER), duration(StatsLayout.OUTPUT), StatDuration.ZERO, StatDuration.ZERO);
        final List<BatchStatistics> batchStats = new ArrayList<>();
        for (int size = 1; size <= layout.maxBatchSize(); size++)
        {
            final int base = layout.batchBase(size);
            final long count = sum(base);
            if (count > 0)
            {
                batchStats.add(new BatchStatistics(size, new StatDuration(count, sum(base + 1)),
                    new StatDuration(count, sum(base + 2)), new StatDuration(count, sum(base + 3))));
            }
        }
        final Map<FailureReason, Long> failed = new EnumMap<>(FailureReason.class);
        for (final FailureReason reason : FailureReason.values())
        {
            failed.put(reason, sum(StatsLayout.FAILURES + reason.ordinal()));
        }
        final Map<String, Long> microsByKind = Map.of("request", sum(StatsLayout.MICROS),
            "queue", sum(StatsLayout.MICROS + 1), "compute_input", sum(StatsLayout.MICROS + 2),
            "compute_infer", sum(StatsLayout.MICROS + 3), "compute_output", sum(StatsLayout.MICROS + 4));
        long lastInference = 0;
        for (final StatsCell cell : cells)
        {
            lastInference = Math.max(lastInference, cell.read(StatsLayout.LAST_INFERENCE));
        }
        return new ModelStatistics(name, version, lastInference, sum(StatsLayout.INFERENCES),
            sum(StatsLayout.EXECUTIONS), inference, List.copyOf(batchStats), failed, pending.getAsLong(),
            microsByKind);
    }

    /** @return requests accepted and not yet executing */
    public long pendingRequests()
    {
        return pending.getAsLong();
    }

    private long sum(final int index)
    {
        long total = shared.read(index);
        for (final StatsCell cell : cells)
        {
            total += cell.read(index);
        }
        return total;
    }

    private StatDuration duration(final int kind)
    {
        return new StatDuration(sum(StatsLayout.DURATIONS + kind * 2), sum(StatsLayout.DURATIONS + kind * 2 + 1));
    }
}
