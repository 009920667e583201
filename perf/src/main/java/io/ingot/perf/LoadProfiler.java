package io.ingot.perf;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs load levels one after another as perf_analyzer does: for each level, start the load, warm up, then measure
 * windows until the last three agree — every window's throughput and latency within the stability percentage of
 * their mean — or the trial limit is reached; report the last three windows merged. With a latency threshold (an
 * SLO), each level also counts the requests over it, and the sweep ends after the first level whose stability
 * latency statistic exceeds it, as perf_analyzer's {@code --latency-threshold} does.
 */
public final class LoadProfiler
{
    /** Windows that must agree. */
    public static final int STABILITY_WINDOWS = 3;
    /** How often a sleeping phase checks for a stop request. */
    private static final long TICK_MS = 50;
    /** Seed of the random arrival processes: a run's schedule is reproducible, level by level. */
    private static final long ARRIVAL_SEED = 42;

    /** How load is generated. */
    public enum Mode
    {
        /** Closed loop over concurrency levels. */
        CONCURRENCY,
        /** Open loop over request rates. */
        REQUEST_RATE
    }

    /**
     * Measurement settings.
     *
     * @param warmupMs       warm-up before each level's first window
     * @param windowMs       length of a measurement window
     * @param stabilityPct   allowed deviation of each of the last three windows from their mean, in percent
     * @param maxTrials      windows after which a level is reported even if unstable
     * @param percentile     latency statistic that must be stable ({@code avg} or {@code p50}...)
     * @param arrivals       arrival process (open loop)
     * @param maxOutstanding requests in flight at most (open loop)
     * @param latencyThresholdUs the latency threshold in microseconds, judged on {@code percentile}; 0 for none
     */
    public record Settings(long warmupMs, long windowMs, double stabilityPct, int maxTrials, String percentile,
        Arrivals arrivals, int maxOutstanding, double latencyThresholdUs)
    {
    }

    /** Receives progress: which level and window the profiler is at. */
    public interface Progress
    {
        /**
         * @param levelIndex index of the level being measured
         * @param phase      {@code "warm-up"} or {@code "window N"}
         */
        void at(int levelIndex, String phase);
    }

    private final LoadTarget target;
    private final Mode mode;
    private final int batchSize;
    private final Settings settings;
    private final Progress progress;
    private final ErrorLog errors = new ErrorLog();
    private volatile boolean stopRequested;

    /**
     * @param target    where requests go
     * @param mode      closed or open loop
     * @param batchSize rows per request
     * @param settings  measurement settings
     * @param progress  receives progress
     */
    public LoadProfiler(final LoadTarget target, final Mode mode, final int batchSize, final Settings settings,
        final Progress progress)
    {
        this.target = target;
        this.mode = mode;
        this.batchSize = batchSize;
        this.settings = settings;
        this.progress = progress;
    }

    /** Asks the profiler to stop at the next tick; what was measured so far is still returned. */
    public void requestStop()
    {
        stopRequested = true;
    }

    /** @return whether a stop was requested. */
    public boolean stopRequested()
    {
        return stopRequested;
    }

    /** @return the first error message of the run, or {@code null}. */
    public String firstError()
    {
        return errors.firstMessage();
    }

    /**
     * Measures every level, up to and including the first whose latency exceeds the threshold.
     *
     * @param levels  concurrencies or request rates
     * @param onLevel receives each level's result as soon as it is measured (also a partial, interrupted one)
     * @return the results, in order; shorter than {@code levels} when stopped or past the threshold
     * @throws PerfException when a level gets no successful response at all
     */
    public List<LevelResult> run(final List<Double> levels, final Consumer<LevelResult> onLevel)
    {
        final List<LevelResult> results = new ArrayList<>();
        for (int i = 0; i < levels.size() && !stopRequested; i++)
        {
            final LevelResult result = measure(i, levels.get(i));
            if (result != null)
            {
                results.add(result);
                onLevel.accept(result);
                if (exceedsThreshold(result))
                {
                    break;
                }
            }
        }
        return results;
    }

    /**
     * @param result a level's result
     * @return whether its latency statistic (the stability one: {@code avg} or a percentile) is over the threshold
     */
    public boolean exceedsThreshold(final LevelResult result)
    {
        return settings.latencyThresholdUs() > 0 && result.latencyUs().get(settings.percentile())
            > settings.latencyThresholdUs();
    }

    private LevelResult measure(final int index, final double level)
    {
        final Recorder recorder = new Recorder(3);
        final LoadDriver driver = mode == Mode.CONCURRENCY
            ? new ClosedLoop(target, (int)level, recorder, errors)
            : new OpenLoop(target, settings.arrivals().at(level, ARRIVAL_SEED + index), settings.maxOutstanding(),
                recorder, errors);
        final List<Window> windows = new ArrayList<>();
        boolean stable = false;
        driver.start();
        try
        {
            progress.at(index, "warm-up");
            if (!sleep(settings.warmupMs()))
            {
                return null;
            }
            recorder.reset();
            errors.takeCount();
            driver.takeDelayed();
            ServerCounters before = target.counters();
            long start = System.nanoTime();
            while (windows.size() < settings.maxTrials())
            {
                progress.at(index, "window " + (windows.size() + 1));
                final boolean full = sleep(settings.windowMs());
                final Histogram latencies = recorder.getIntervalHistogram();
                final long end = System.nanoTime();
                final ServerCounters after = target.counters();
                final Window window = new Window(end - start, latencies, errors.takeCount(), driver.takeDelayed(),
                    before == null || after == null ? null : after.minus(before));
                before = after;
                start = end;
                if (!full)
                {
                    // Interrupted: keep the partial window only when nothing complete was measured.
                    if (windows.isEmpty() && latencies.getTotalCount() > 0)
                    {
                        windows.add(window);
                    }
                    break;
                }
                windows.add(window);
                if (latencies.getTotalCount() == 0 && window.errors() > 0)
                {
                    throw PerfException.failure("every request failed at " + describe(level) + ": "
                        + errors.firstMessage());
                }
                stable = isStable(windows);
                if (stable)
                {
                    break;
                }
            }
        }
        finally
        {
            driver.stop();
        }
        if (windows.isEmpty())
        {
            return null;
        }
        final List<Window> merged = windows.subList(Math.max(0, windows.size() - STABILITY_WINDOWS),
            windows.size());
        if (merged.stream().allMatch(window -> window.latencies().getTotalCount() == 0))
        {
            throw PerfException.failure("no response arrived within " + settings.windowMs() * windows.size()
                + " ms at " + describe(level) + (errors.firstMessage() == null ? ""
                    : "; first error: " + errors.firstMessage()));
        }
        return LevelResult.of(level, batchSize, merged, windows.size(), stable, !stopRequested,
            settings.latencyThresholdUs());
    }

    private String describe(final double level)
    {
        return mode == Mode.CONCURRENCY ? "concurrency " + (long)level : "request rate " + level + "/s";
    }

    /** perf_analyzer's check: each of the last three windows within the percentage of their mean. */
    private boolean isStable(final List<Window> windows)
    {
        if (windows.size() < STABILITY_WINDOWS)
        {
            return false;
        }
        final List<Window> last = windows.subList(windows.size() - STABILITY_WINDOWS, windows.size());
        final double[] throughput = new double[STABILITY_WINDOWS];
        final double[] latency = new double[STABILITY_WINDOWS];
        for (int i = 0; i < STABILITY_WINDOWS; i++)
        {
            final Window window = last.get(i);
            throughput[i] = window.requestsPerSecond();
            latency[i] = "avg".equals(settings.percentile()) ? window.meanNs()
                : LevelResult.Latency.of(window.latencies()).get(settings.percentile());
        }
        return within(throughput) && within(latency);
    }

    private boolean within(final double[] values)
    {
        double sum = 0;
        for (final double value : values)
        {
            sum += value;
        }
        final double mean = sum / values.length;
        if (!(mean > 0))
        {
            return false;
        }
        final double allowed = settings.stabilityPct() / 100.0;
        for (final double value : values)
        {
            if (Math.abs(value / mean - 1) > allowed)
            {
                return false;
            }
        }
        return true;
    }

    /** Sleeps in ticks; returns false when a stop was requested first. */
    private boolean sleep(final long millis)
    {
        final long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!stopRequested)
        {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return true;
            }
            try
            {
                Thread.sleep(Math.min(TICK_MS, Math.max(1, remaining / 1_000_000L)));
            }
            catch (final InterruptedException ex)
            {
                stopRequested = true;
                Thread.currentThread().interrupt();
            }
        }
        return false;
    }
}
