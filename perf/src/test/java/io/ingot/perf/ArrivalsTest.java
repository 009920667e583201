package io.ingot.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The open loop's arrival processes: their gaps' statistics (seeded), and the trace file's errors. */
class ArrivalsTest
{
    private static final int DRAWS = 200_000;

    @Test
    void constantGapsAreOneOverTheRate()
    {
        final Arrivals.Gaps gaps = new Arrivals.Constant().at(400, 1);
        for (int i = 0; i < 10; i++)
        {
            assertEquals(2_500_000, gaps.nextNanos());
        }
    }

    @Test
    void poissonGapsHaveTheMeanAndSpreadOfAnExponential()
    {
        final Arrivals.Gaps gaps = new Arrivals.Poisson().at(1000, 7);
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < DRAWS; i++)
        {
            final double gap = gaps.nextNanos();
            sum += gap;
            squares += gap * gap;
        }
        final double mean = sum / DRAWS;
        final double stddev = Math.sqrt(squares / DRAWS - mean * mean);
        assertEquals(1_000_000, mean, 10_000, "mean gap 1/rate");
        // An exponential's standard deviation equals its mean (coefficient of variation 1).
        assertEquals(1.0, stddev / mean, 0.02);
    }

    @Test
    void sameSeedSameSchedule()
    {
        final Arrivals.Gaps first = new Arrivals.Bursty(4, 50).at(300, 11);
        final Arrivals.Gaps second = new Arrivals.Bursty(4, 50).at(300, 11);
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(first.nextNanos(), second.nextNanos());
        }
    }

    @Test
    void burstyKeepsTheMeanRateAndArrivesOnlyInTheOnPhase()
    {
        final double rate = 500;
        final double periodMs = 20;
        final double ratio = 5;
        final Arrivals.Gaps gaps = new Arrivals.Bursty(ratio, periodMs).at(rate, 3);
        final double periodNs = periodMs * 1e6;
        final double onNs = periodNs / ratio;
        long wall = 0;
        long offPhase = 0;
        long maxGap = 0;
        for (int i = 0; i < DRAWS; i++)
        {
            final long gap = gaps.nextNanos();
            maxGap = Math.max(maxGap, gap);
            wall += gap;
            // Rounding puts an arrival at most half a nanosecond past the on phase's end.
            if (wall % (long)periodNs > onNs + 1)
            {
                offPhase++;
            }
        }
        assertEquals(0, offPhase, "arrivals during the off phase");
        assertEquals(rate, DRAWS / (wall / 1e9), rate * 0.02, "mean rate over whole periods");
        // The off phase shows as gaps at least as long as it is.
        assertTrue(maxGap >= periodNs - onNs, "longest gap " + maxGap + " ns spans an off phase");
    }

    @Test
    void burstyRatioOneIsPoisson()
    {
        final Arrivals.Gaps gaps = new Arrivals.Bursty(1, 10).at(2000, 5);
        double sum = 0;
        for (int i = 0; i < DRAWS; i++)
        {
            sum += gaps.nextNanos();
        }
        assertEquals(500_000, sum / DRAWS, 5_000);
    }

    @Test
    void burstyRefusesABadRatioOrPeriodNamingTheOption()
    {
        assertEquals("--burst-ratio must be a number >= 1 (the on phase's rate over the mean rate; 1 is Poisson),"
            + " got 0.0", assertThrows(PerfException.class, () -> new Arrivals.Bursty(0, 100)).getMessage());
        assertTrue(assertThrows(PerfException.class, () -> new Arrivals.Bursty(-2, 100)).getMessage()
            .startsWith("--burst-ratio"));
        assertTrue(assertThrows(PerfException.class, () -> new Arrivals.Bursty(Double.NaN, 100)).getMessage()
            .startsWith("--burst-ratio"));
        assertEquals("--burst-period-ms must be a number of milliseconds > 0, got 0.0",
            assertThrows(PerfException.class, () -> new Arrivals.Bursty(2, 0)).getMessage());
    }

    @Test
    void traceReplaysItsGapsScaledToTheRateAndLoops() throws Exception
    {
        final Arrivals.Trace trace = parse("time_ms,size\n0,1\n1.5,1\n2.0,1\n# pause\n\n6,1\n");
        assertEquals(3 * 1e9 / 6e6, trace.ownRate(), 1e-9);
        final Arrivals.Gaps own = trace.at(trace.ownRate(), 0);
        final long[] replay = new long[6];
        for (int i = 0; i < replay.length; i++)
        {
            replay[i] = own.nextNanos();
        }
        // The recorded gaps, then one mean gap (2 ms) before the trace starts again.
        assertArrayEquals(new long[] {1_500_000, 500_000, 4_000_000, 2_000_000, 1_500_000, 500_000}, replay);
        final Arrivals.Gaps doubled = trace.at(2 * trace.ownRate(), 0);
        assertEquals(750_000, doubled.nextNanos());
        assertEquals(250_000, doubled.nextNanos());
    }

    @Test
    void traceErrorsNameTheOptionTheFileAndTheLine()
    {
        assertEquals("--request-trace t.csv line 4: time 1.0 ms is before the previous arrival's (line 3); the"
            + " times must be sorted", parseError("time\n0\n2.5\n1.0\n"));
        assertEquals("--request-trace t.csv line 3: 'abc' is not a time in milliseconds",
            parseError("0\n1\nabc,2\n"));
        assertEquals("--request-trace t.csv line 2: 'NaN' is not a finite time in milliseconds",
            parseError("0\nNaN\n"));
        assertEquals("--request-trace t.csv: needs at least two arrival times, found 1", parseError("h\n5\n"));
        assertEquals("--request-trace t.csv: all 3 arrivals are at the same time; the trace must span more than"
            + " 0 ms", parseError("5\n5\n5\n"));
    }

    @Test
    void traceFileThatDoesNotExistIsNamed(@TempDir final Path dir) throws Exception
    {
        final Path missing = dir.resolve("missing.csv");
        assertEquals("--request-trace " + missing + ": no such file",
            assertThrows(PerfException.class, () -> TraceFile.read(missing)).getMessage());
        final Path file = Files.writeString(dir.resolve("t.csv"), "0\n10\n");
        assertEquals(100, TraceFile.read(file).ownRate(), 1e-9);
    }

    private static Arrivals.Trace parse(final String text) throws Exception
    {
        return TraceFile.parse(new BufferedReader(new StringReader(text)), "t.csv");
    }

    private static String parseError(final String text)
    {
        final PerfException error = assertThrows(PerfException.class, () -> parse(text));
        assertEquals(PerfException.USAGE, error.exitCode());
        return error.getMessage();
    }
}
