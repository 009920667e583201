package io.ingot.scheduler;

import java.util.Arrays;

/**
 * How soon the next request is expected, learned from the last {@value #WINDOW} gaps between arrivals. The estimate
 * is the median gap scaled to a mean as for exponential gaps ({@code median / ln 2}): the median ignores the long
 * pauses of a closed loop (clients wait for their responses) and of bursty traffic, which a mean would average into
 * every burst. {@link #expectedGapNs} says {@link #NONE} once the silence since the last arrival is {@value #SILENCE}
 * expected gaps long: the burst is over, and waiting for it would be idle time.
 *
 * <p>Single-threaded (the holder of the batching role). Allocation-free.
 */
final class ArrivalGaps
{
    /** No arrival is expected soon (or too few were seen to tell). */
    static final long NONE = Long.MAX_VALUE;
    static final int WINDOW = 16;
    /** Expected gaps of silence after which the arrivals count as stopped. */
    static final int SILENCE = 3;
    private static final double MEDIAN_TO_MEAN = 1 / Math.log(2);

    private final long[] gaps = new long[WINDOW];
    private final long[] scratch = new long[WINDOW];
    private int filled;
    private int next;
    private long lastArrivalNs;
    private boolean seen;
    private long meanGapNs = NONE;
    private long sumNs;
    private boolean stale;

    /**
     * Records an arrival.
     *
     * @param acceptedNs when the request was accepted
     */
    void arrived(final long acceptedNs)
    {
        if (seen)
        {
            final long gap = Math.max(0, acceptedNs - lastArrivalNs);
            sumNs += gap - (filled == WINDOW ? gaps[next] : 0);
            gaps[next] = gap;
            next = (next + 1) % WINDOW;
            filled = Math.min(WINDOW, filled + 1);
            stale = true;
        }
        seen = true;
        lastArrivalNs = Math.max(lastArrivalNs, acceptedNs);
    }

    /**
     * @param nowNs the current time
     * @return the expected time from now to the next arrival, or {@link #NONE} when none is expected soon
     */
    long expectedGapNs(final long nowNs)
    {
        if (filled < 2)
        {
            return NONE;
        }
        if (stale)
        {
            System.arraycopy(gaps, 0, scratch, 0, filled);
            Arrays.sort(scratch, 0, filled);
            meanGapNs = Math.max(1, Math.round(scratch[(filled - 1) / 2] * MEDIAN_TO_MEAN));
            stale = false;
        }
        return nowNs - lastArrivalNs >= SILENCE * meanGapNs ? NONE : meanGapNs;
    }

    /**
     * The arithmetic mean of the window's gaps: the rate that loads the instances, which the median (meant for the
     * next gap) understates for evenly spaced arrivals by {@code ln 2}.
     *
     * @param nowNs the current time
     * @return the mean gap, or {@link #NONE} when {@link #expectedGapNs} is
     */
    long meanGapNs(final long nowNs)
    {
        return expectedGapNs(nowNs) == NONE ? NONE : Math.max(1, sumNs / filled);
    }

    /** @return when the silence that ends the wait for the next arrival begins (after {@link #expectedGapNs}) */
    long silenceAtNs()
    {
        return NanoClock.plus(lastArrivalNs, SILENCE * meanGapNs);
    }
}
