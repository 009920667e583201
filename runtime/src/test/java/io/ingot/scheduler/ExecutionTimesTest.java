package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import static io.ingot.scheduler.PolicyBench.MS;
import static io.ingot.scheduler.PolicyBench.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The online learner of execution times: outliers, lasting changes, and sizes not run yet. */
class ExecutionTimesTest
{
    @Test
    void oneStallDoesNotBecomeThePlan()
    {
        final ExecutionTimes times = new ExecutionTimes(8, 99);
        for (int i = 0; i < ExecutionTimes.WINDOW - 1; i++)
        {
            times.record(4, 2_400 * US + (i % 5) * 10 * US);
        }
        times.record(4, 50 * MS);
        assertTrue(times.plannedNs(4) <= 2_440 * US, "p99 plan " + times.plannedNs(4) + " ns ignores the 50 ms stall");
        assertTrue(times.expectedNs(4) >= 2_400 * US && times.expectedNs(4) <= 2_440 * US);
    }

    @Test
    void theTailThatIsNotAnOutlierIsPlannedFor()
    {
        final ExecutionTimes times = new ExecutionTimes(8, 90);
        for (int i = 0; i < 20; i++)
        {
            times.record(2, (i < 17 ? 2_000 : 2_600) * US);
        }
        assertEquals(2_600 * US, times.plannedNs(2), "three in twenty at 2.6 ms: the p90 plan");
        assertEquals(2_000 * US, times.expectedNs(2));
    }

    @Test
    void aLastingChangeIsFollowedWithinHalfAWindow()
    {
        final ExecutionTimes times = new ExecutionTimes(8, 99);
        for (int i = 0; i < ExecutionTimes.WINDOW; i++)
        {
            times.record(1, 2 * MS);
        }
        for (int i = 0; i <= ExecutionTimes.WINDOW / 2; i++)
        {
            times.record(1, 4 * MS);
        }
        assertEquals(4 * MS, times.expectedNs(1));
        assertEquals(4 * MS, times.plannedNs(1));
    }

    @Test
    void sizesNotRunYetFollowTheFittedLine()
    {
        final ExecutionTimes times = new ExecutionTimes(16, 99);
        assertEquals(ExecutionTimes.UNKNOWN, times.expectedNs(3));
        for (int i = 0; i < ExecutionTimes.MIN_SAMPLES; i++)
        {
            times.record(2, 2_200 * US);
        }
        assertEquals(2_200 * US, times.expectedNs(1), "one size known: smaller sizes take no less");
        assertEquals(4_400 * US, times.expectedNs(4), "and larger ones are assumed to scale in proportion");
        for (int i = 0; i < ExecutionTimes.MIN_SAMPLES; i++)
        {
            times.record(8, 2_800 * US);
        }
        assertEquals(3_600 * US, times.expectedNs(16), "a + b·s through (2, 2.2 ms) and (8, 2.8 ms)");
        assertEquals(2_500 * US, times.plannedNs(5));
        assertEquals(2_100 * US, times.expectedNs(1), "below the smallest size run, the line too");
        assertEquals(2_700 * US, times.expectedNs(7));
    }

    @Test
    void ignoresReportsOutsideTheModelsBatchSizes()
    {
        final ExecutionTimes times = new ExecutionTimes(4, 99);
        times.record(0, MS);
        times.record(5, MS);
        times.record(2, -1);
        assertEquals(ExecutionTimes.UNKNOWN, times.expectedNs(1));
    }
}
