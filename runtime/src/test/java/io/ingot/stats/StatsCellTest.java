package io.ingot.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An instance records a batch's successful requests summed ({@link StatsCell#requestsSucceeded}); what Triton's
 * statistics and the Prometheus metrics read must be exactly what one update per request gave, whole microseconds
 * included (each request's durations are truncated to microseconds on their own, then summed).
 */
class StatsCellTest
{
    private static final StatsLayout LAYOUT = new StatsLayout(8);

    @Test
    void aBatchSummedOnceCountsExactlyWhatEachOfItsRequestsCountedAlone()
    {
        final long inputNs = 1_999;
        final long inferNs = 12_345_678;
        final long outputNs = 1_001;
        final int[] batchSizes = {1, 3, 2};
        final long[] requestNs = {5_000_999, 7_400_001, 999};
        final long[] queueNs = {1_999, 2_000, 0};

        final StatsCell oneByOne = new StatsCell(LAYOUT, false);
        oneByOne.beginUpdate();
        for (int r = 0; r < batchSizes.length; r++)
        {
            oneByOne.requestSucceeded(batchSizes[r], requestNs[r], queueNs[r], inputNs, inferNs, outputNs);
        }
        oneByOne.endUpdate();

        final StatsCell summed = new StatsCell(LAYOUT, false);
        final SucceededRequests succeeded = new SucceededRequests();
        succeeded.clear();
        for (int r = 0; r < batchSizes.length; r++)
        {
            succeeded.add(batchSizes[r], requestNs[r], queueNs[r]);
        }
        summed.beginUpdate();
        summed.requestsSucceeded(succeeded, inputNs, inferNs, outputNs);
        summed.endUpdate();

        final long[] expected = new long[LAYOUT.length()];
        final long[] actual = new long[LAYOUT.length()];
        oneByOne.copyTo(expected);
        summed.copyTo(actual);
        assertArrayEquals(expected, actual);
        assertEquals(3, actual[StatsLayout.DURATIONS + StatsLayout.SUCCESS * 2], "three successes");
        assertEquals(6, actual[StatsLayout.INFERENCES], "inferences are the requests' batch sizes");
        assertEquals(5_000 + 7_400, actual[StatsLayout.MICROS], "each request's microseconds, truncated alone");
    }

    @Test
    void aBatchWithoutSuccessesChangesNoRequestCounter()
    {
        final StatsCell cell = new StatsCell(LAYOUT, false);
        final SucceededRequests none = new SucceededRequests();
        none.clear();
        cell.requestsSucceeded(none, 10, 20, 30);
        final long[] counters = new long[LAYOUT.length()];
        cell.copyTo(counters);
        assertArrayEquals(new long[LAYOUT.length()], counters);
    }
}
