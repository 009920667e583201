package io.ingot.scheduler;

import java.util.Arrays;

/**
 * What one instance's executions of each batch size took, learned online from {@link BatchPolicy#executed} reports:
 * for every batch size a window of the last {@value #WINDOW} durations, summarised as a median (the expected time) and
 * a quantile at the SLO's percentile (the time to plan the SLO against), and, for batch sizes not run yet, a line
 * {@code a + b·size} fitted through the sizes that were.
 *
 * <p>Robust to outliers: a duration further than {@value #OUTLIER_MADS} median absolute deviations above the window's
 * median (a GC pause, a descheduled thread) is left out of the quantile, so one stall does not make the policy plan
 * with it for the window's next {@value #WINDOW} batches — as long as such durations are rare: more of them than the
 * percentile's allowance (at least one per window) are a tail, and planned for. A lasting change moves the median
 * itself and is followed within half a window.
 *
 * <p>Single-threaded (the holder of the batching role). Allocates a size's window at its first report only.
 */
final class ExecutionTimes
{
    /** {@link #expectedNs} and {@link #plannedNs} when nothing is known yet. */
    static final long UNKNOWN = -1;
    static final int WINDOW = 32;
    /** Reports of a size before its own window is trusted over the fitted line. */
    static final int MIN_SAMPLES = 3;
    static final int OUTLIER_MADS = 5;

    private final double percentile;
    private final long[][] windows;
    private final int[] filled;
    private final int[] next;
    private final long[] median;
    private final long[] quantile;
    private final long[] scratch = new long[WINDOW];
    private final long[] deviations = new long[WINDOW];
    /** Line through the trusted sizes' medians ({@code expected}) and quantiles ({@code planned}). */
    private double expectedBase;
    private double expectedSlope;
    private double plannedBase;
    private double plannedSlope;
    private int fittedSizes;
    private int onlySize;

    /**
     * @param maxBatch   the model's {@code max(1, max_batch_size)}
     * @param percentile the SLO's percentile, in (0, 100)
     */
    ExecutionTimes(final int maxBatch, final double percentile)
    {
        this.percentile = percentile;
        this.windows = new long[maxBatch + 1][];
        this.filled = new int[maxBatch + 1];
        this.next = new int[maxBatch + 1];
        this.median = new long[maxBatch + 1];
        this.quantile = new long[maxBatch + 1];
    }

    /**
     * Learns one execution.
     *
     * @param size       its batch size; sizes outside {@code 1..maxBatch} are ignored
     * @param durationNs how long it took
     */
    void record(final int size, final long durationNs)
    {
        if (size < 1 || size >= windows.length || durationNs < 0)
        {
            return;
        }
        long[] window = windows[size];
        if (window == null)
        {
            window = new long[WINDOW];
            windows[size] = window;
        }
        window[next[size]] = durationNs;
        next[size] = (next[size] + 1) % WINDOW;
        filled[size] = Math.min(WINDOW, filled[size] + 1);
        summarise(size);
        fit();
    }

    /** Median, and the percentile's quantile among the durations that are not outliers. */
    private void summarise(final int size)
    {
        final int n = filled[size];
        System.arraycopy(windows[size], 0, scratch, 0, n);
        Arrays.sort(scratch, 0, n);
        final long mid = scratch[(n - 1) / 2];
        for (int i = 0; i < n; i++)
        {
            deviations[i] = Math.abs(scratch[i] - mid);
        }
        Arrays.sort(deviations, 0, n);
        // A window of identical durations has no spread: allow 5% of the median before calling a duration an outlier.
        final long spread = Math.max(deviations[(n - 1) / 2], mid / 20);
        final long limit = mid + OUTLIER_MADS * spread;
        int inliers = n;
        while (inliers > 1 && scratch[inliers - 1] > limit)
        {
            inliers--;
        }
        if (n - inliers > rareCount(n))
        {
            // Too many to be stalls: they are the tail the percentile must plan for.
            inliers = n;
        }
        final int rank = (int)Math.ceil(percentile / 100.0 * inliers);
        median[size] = mid;
        quantile[size] = scratch[Math.max(0, Math.min(inliers, rank) - 1)];
    }

    /**
     * @param n a window's fill
     * @return how many durations of it may be set aside as outliers: the percentile's own allowance, at least one
     */
    private int rareCount(final int n)
    {
        return Math.max(1, (int)(n * (100 - percentile) / 100));
    }

    /** Least squares over the trusted sizes: every size counts once, however often it ran. */
    private void fit()
    {
        int sizes = 0;
        double sx = 0;
        double sxx = 0;
        double sm = 0;
        double sxm = 0;
        double sq = 0;
        double sxq = 0;
        for (int size = 1; size < windows.length; size++)
        {
            if (filled[size] >= MIN_SAMPLES)
            {
                sizes++;
                onlySize = size;
                sx += size;
                sxx += (double)size * size;
                sm += median[size];
                sxm += (double)size * median[size];
                sq += quantile[size];
                sxq += (double)size * quantile[size];
            }
        }
        fittedSizes = sizes;
        if (sizes < 2)
        {
            return;
        }
        final double denominator = sizes * sxx - sx * sx;
        expectedSlope = Math.max(0, (sizes * sxm - sx * sm) / denominator);
        expectedBase = (sm - expectedSlope * sx) / sizes;
        plannedSlope = Math.max(0, (sizes * sxq - sx * sq) / denominator);
        plannedBase = (sq - plannedSlope * sx) / sizes;
    }

    /**
     * @param size a batch size, {@code 1..maxBatch}
     * @return the expected (median) execution time of that size, or {@link #UNKNOWN}
     */
    long expectedNs(final int size)
    {
        return predict(size, median, expectedBase, expectedSlope);
    }

    /**
     * @param size a batch size, {@code 1..maxBatch}
     * @return the execution time of that size at the SLO's percentile, or {@link #UNKNOWN}
     */
    long plannedNs(final int size)
    {
        return predict(size, quantile, plannedBase, plannedSlope);
    }

    /**
     * A size's own window once trusted; else the fitted line, never below a smaller trusted size's value; with one
     * trusted size only, that size's value scaled up in proportion for larger sizes (as if nothing were shared
     * between a batch's items: pessimistic until a second size has run) and kept for smaller ones.
     */
    private long predict(final int size, final long[] own, final double base, final double slope)
    {
        if (filled[size] >= MIN_SAMPLES)
        {
            return own[size];
        }
        if (fittedSizes == 0)
        {
            return UNKNOWN;
        }
        if (fittedSizes == 1)
        {
            final long known = own[onlySize];
            return size <= onlySize ? known : known * size / onlySize;
        }
        long floor = 0;
        for (int smaller = Math.min(size, own.length - 1); smaller >= 1; smaller--)
        {
            if (filled[smaller] >= MIN_SAMPLES)
            {
                floor = own[smaller];
                break;
            }
        }
        return Math.max(floor, Math.max(0, Math.round(base + slope * size)));
    }
}
