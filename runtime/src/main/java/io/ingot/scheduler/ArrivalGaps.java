package io.ingot.scheduler;

import io.ingot.time.NanoClock;

/**
 * How soon the next request is expected, learned from the last {@value #WINDOW} gaps between arrivals, less the
 * longest. The estimate is their arithmetic mean: the rate that loads the instances, and the measure that stays right
 * when arrivals come in clumps (a client's timer that wakes late sends several at once; the median gap is then near
 * zero, as it is between the responses of a closed loop's batch). The longest gap is left out so that the pause
 * before a burst does not dilute the burst's rate for its first {@value #WINDOW} arrivals. {@link #expectedGapNs}
 * says {@link #NONE} once the silence since the last arrival is {@value #SILENCE} times the longest of the gaps kept:
 * the burst is over, and waiting for it would be idle time. That gap rather than the mean, so that the pause between
 * two clumps does not count as an end.
 *
 * <p>Single-threaded (the holder of the batching role). Allocation-free.
 */
final class ArrivalGaps
{
    /** No arrival is expected soon (or too few were seen to tell). */
    static final long NONE = Long.MAX_VALUE;
    static final int WINDOW = 16;
    /** Longest gaps of silence after which the arrivals count as stopped. */
    static final int SILENCE = 2;

    private final long[] gaps = new long[WINDOW];
    private int filled;
    private int next;
    private long lastArrivalNs;
    private boolean seen;
    private long meanGapNs;
    /** The longest gap kept (the second longest of the window). */
    private long longestKeptGapNs;
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
            gaps[next] = Math.max(0, acceptedNs - lastArrivalNs);
            next = (next + 1) % WINDOW;
            filled = Math.min(WINDOW, filled + 1);
            stale = true;
        }
        seen = true;
        lastArrivalNs = Math.max(lastArrivalNs, acceptedNs);
    }

    /**
     * @param nowNs the current time
     * @return the mean gap between arrivals (the longest left out), or {@link #NONE} when none is expected soon
     */
    long expectedGapNs(final long nowNs)
    {
        if (filled < 2)
        {
            return NONE;
        }
        if (stale)
        {
            long sum = 0;
            long longest = 0;
            long second = 0;
            for (int i = 0; i < filled; i++)
            {
                final long gap = gaps[i];
                sum += gap;
                if (gap > longest)
                {
                    second = longest;
                    longest = gap;
                }
                else if (gap > second)
                {
                    second = gap;
                }
            }
            meanGapNs = Math.max(1, (sum - longest) / (filled - 1));
            longestKeptGapNs = Math.max(1, second);
            stale = false;
        }
        return nowNs - lastArrivalNs >= SILENCE * longestKeptGapNs ? NONE : meanGapNs;
    }

    /** @return when the silence that ends the wait for the next arrival begins (after {@link #expectedGapNs}) */
    long silenceAtNs()
    {
        return NanoClock.plus(lastArrivalNs, SILENCE * longestKeptGapNs);
    }
}
