package io.ingot.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoadProfilerTest
{
    /** Stability within 1000 %: any three windows with requests agree, so a level takes exactly three windows. */
    private static final LoadProfiler.Settings LOOSE = new LoadProfiler.Settings(0, 200, 1000, 5, "avg",
        new Arrivals.Constant(), 4, 0);

    @Test
    void eachLevelMergesThreeStableWindowsAndReadsTheBatchSizeFromTheCounters()
    {
        final FakeTarget target = new FakeTarget(null);
        final List<LevelResult> seen = new ArrayList<>();
        final List<LevelResult> results = new LoadProfiler(target, LoadProfiler.Mode.CONCURRENCY, 3, LOOSE,
            (level, phase) ->
            {
            }).run(List.of(1.0, 2.0), seen::add);
        assertEquals(2, results.size());
        assertEquals(results, seen);
        for (final LevelResult result : results)
        {
            assertTrue(result.stable());
            assertTrue(result.complete());
            assertEquals(3, result.windows());
            assertTrue(result.requests() > 0);
            // The fake counts two inferences per execution; every request carries three rows.
            assertEquals(2.0, result.averageBatchSize(), 1e-9);
            assertEquals(3 * result.requestsPerSecond(), result.inferencesPerSecond(), 1e-6);
            assertTrue(result.latencyUs().p50() >= 1000, "a request sleeps a millisecond: " + result.latencyUs());
            assertTrue(result.latencyUs().p50() <= result.latencyUs().p99());
        }
    }

    @Test
    void openLoopSendsAtTheRequestedRate()
    {
        final FakeTarget target = new FakeTarget(null);
        final List<LevelResult> results = new LoadProfiler(target, LoadProfiler.Mode.REQUEST_RATE, 1, LOOSE,
            (level, phase) ->
            {
            }).run(List.of(200.0), result ->
            {
            });
        assertEquals(1, results.size());
        // 200/s over three windows of 200 ms: about 120 requests; generous bounds for a busy machine.
        assertTrue(results.get(0).requests() > 20 && results.get(0).requests() < 400,
            "requests: " + results.get(0).requests());
    }

    @Test
    void aLatencyThresholdCountsTheRequestsOverItAndEndsTheSweepAtTheFirstLevelPastIt()
    {
        // Every request of the fake sleeps a millisecond: its median is over 0.5 ms, and far below 10 s.
        final LoadProfiler.Settings tight = new LoadProfiler.Settings(0, 200, 1000, 3, "p50",
            new Arrivals.Constant(), 4, 500);
        final LoadProfiler.Settings loose = new LoadProfiler.Settings(0, 200, 1000, 3, "p50",
            new Arrivals.Constant(), 4, 10_000_000);
        final List<LevelResult> stopped = new LoadProfiler(new FakeTarget(null), LoadProfiler.Mode.CONCURRENCY, 1,
            tight, (level, phase) ->
            {
            }).run(List.of(1.0, 2.0, 4.0), result ->
            {
            });
        assertEquals(1, stopped.size(), "the sweep ends after the first level past the threshold");
        assertEquals(stopped.get(0).requests(), stopped.get(0).overThreshold());
        assertEquals(1.0, stopped.get(0).overThresholdFraction(), 1e-9);

        final List<LevelResult> all = new LoadProfiler(new FakeTarget(null), LoadProfiler.Mode.CONCURRENCY, 1,
            loose, (level, phase) ->
            {
            }).run(List.of(1.0, 2.0), result ->
            {
            });
        assertEquals(2, all.size());
        assertTrue(all.stream().allMatch(result -> result.overThreshold() == 0 && result.requests() > 0), "" + all);
    }

    @Test
    void levelWhereEveryRequestFailsEndsTheRunWithTheError()
    {
        final PerfException error = assertThrows(PerfException.class,
            () -> new LoadProfiler(new FakeTarget("model exploded"), LoadProfiler.Mode.CONCURRENCY, 1, LOOSE,
                (level, phase) ->
                {
                }).run(List.of(1.0), result ->
                {
                }));
        assertEquals(PerfException.FAILURE, error.exitCode());
        assertTrue(error.getMessage().contains("model exploded"), error.getMessage());
    }

    @Test
    void stopKeepsWhatWasMeasuredAndMarksTheLevelIncomplete() throws Exception
    {
        final FakeTarget target = new FakeTarget(null);
        final LoadProfiler.Settings strict = new LoadProfiler.Settings(0, 300, 0.0001, 100, "avg",
            new Arrivals.Constant(), 4, 0);
        final LoadProfiler profiler = new LoadProfiler(target, LoadProfiler.Mode.CONCURRENCY, 1, strict,
            (level, phase) ->
            {
            });
        final List<LevelResult> results = new ArrayList<>();
        final Thread runner = Thread.ofPlatform().start(() -> results.addAll(profiler.run(List.of(1.0, 2.0),
            result ->
            {
            })));
        // Wait until some windows are measured, then stop.
        while (target.calls() < 200)
        {
            Thread.sleep(10);
        }
        Thread.sleep(700);
        profiler.requestStop();
        runner.join(60_000);
        assertFalse(runner.isAlive());
        assertEquals(1, results.size());
        assertFalse(results.get(0).complete());
        assertFalse(results.get(0).stable());
        assertTrue(results.get(0).requests() > 0);
    }
}
