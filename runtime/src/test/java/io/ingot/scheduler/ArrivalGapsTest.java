package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The adaptive policy's estimate of the next arrival: the mean of the recent gaps, the longest left out. */
class ArrivalGapsTest
{
    private static final long US = 1_000L;

    @Test
    void fewerThanTwoGapsTellNothing()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        assertEquals(ArrivalGaps.NONE, gaps.expectedGapNs(0));
        gaps.arrived(0);
        gaps.arrived(100 * US);
        assertEquals(ArrivalGaps.NONE, gaps.expectedGapNs(100 * US), "one gap is not a rate");
        gaps.arrived(200 * US);
        assertEquals(100 * US, gaps.expectedGapNs(200 * US));
    }

    @Test
    void thePauseBeforeABurstDoesNotDiluteTheBurstsRate()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        gaps.arrived(0);
        long now = 50_000 * US;  // 50 ms of silence, then a burst every 10 us
        for (int i = 0; i < 5; i++)
        {
            gaps.arrived(now);
            now += 10 * US;
        }
        assertEquals(10 * US, gaps.expectedGapNs(now - 10 * US), "the 50 ms pause is the longest gap: left out");
    }

    @Test
    void clumpedArrivalsKeepTheirMeanRateNotTheirMedian()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        long now = 0;
        gaps.arrived(now);
        // Clumps of four, 400 us apart: gaps 0, 0, 0, 400 us ... mean 100 us (the median would be 0).
        for (int clump = 0; clump < 4; clump++)
        {
            now += 400 * US;
            for (int i = 0; i < 4; i++)
            {
                gaps.arrived(now);
            }
        }
        // 16 gaps: four of 400 us, twelve of 0; the longest left out: 3 x 400 / 15 = 80 us.
        assertEquals(80 * US, gaps.expectedGapNs(now));
    }

    @Test
    void silenceOfTwiceTheLongestKeptGapEndsTheWait()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        for (long t = 0; t <= 400 * US; t += 100 * US)
        {
            gaps.arrived(t);
        }
        final long last = 400 * US;
        assertEquals(100 * US, gaps.expectedGapNs(last + 199 * US));
        assertEquals(last + 200 * US, gaps.silenceAtNs());
        assertEquals(ArrivalGaps.NONE, gaps.expectedGapNs(last + 200 * US), "the arrivals have stopped");
        gaps.arrived(last + 1_000 * US);
        assertEquals(100 * US, gaps.expectedGapNs(last + 1_000 * US), "a new arrival starts them again; the long "
            + "gap is left out");
    }

    @Test
    void onlyTheLastWindowCounts()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        long now = 0;
        gaps.arrived(now);
        for (int i = 0; i < ArrivalGaps.WINDOW; i++)
        {
            now += 1_000 * US;
            gaps.arrived(now);
        }
        for (int i = 0; i < ArrivalGaps.WINDOW; i++)
        {
            now += 10 * US;
            gaps.arrived(now);
        }
        assertEquals(10 * US, gaps.expectedGapNs(now), "the slow gaps have left the window");
    }

    @Test
    void anArrivalStampedBeforeTheLastCountsAsAGapOfZero()
    {
        final ArrivalGaps gaps = new ArrivalGaps();
        gaps.arrived(100 * US);
        gaps.arrived(90 * US);  // accepted on another thread, drained later
        gaps.arrived(200 * US);
        gaps.arrived(300 * US);
        // Gaps 0, 100, 100 us; the longest left out: (0 + 100) / 2.
        assertEquals(50 * US, gaps.expectedGapNs(300 * US));
    }
}
