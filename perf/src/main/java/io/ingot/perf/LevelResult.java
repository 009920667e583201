package io.ingot.perf;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * The result of one load level: the last (up to three) measurement windows merged, as perf_analyzer reports them.
 *
 * @param level              the concurrency or the request rate
 * @param requests           successful requests measured
 * @param errors             failed requests
 * @param delayed            requests that started late (open loop)
 * @param durationSeconds    measured time
 * @param requestsPerSecond  successful requests per second
 * @param inferencesPerSecond requests per second times the batch size of each request
 * @param latencyUs          latency statistics in microseconds
 * @param averageBatchSize   the server's inferences per execution over the windows (NaN without statistics)
 * @param serverRequestUs    the server's mean time per request, queue and compute (NaN without statistics)
 * @param serverQueueUs      the server's mean queue time per request (NaN without statistics)
 * @param serverComputeUs    the server's mean compute time per request: input, infer and output (NaN without)
 * @param windows            windows measured for this level, unstable ones included
 * @param stable             whether the last three windows agreed within the stability percentage
 * @param complete           false when the run was interrupted during this level
 * @param overThreshold      successful requests whose latency exceeded the latency threshold (the SLO), to
 *                           HdrHistogram's three significant digits; 0 when the run has no threshold
 */
public record LevelResult(double level, long requests, long errors, long delayed, double durationSeconds,
    double requestsPerSecond, double inferencesPerSecond, Latency latencyUs, double averageBatchSize,
    double serverRequestUs, double serverQueueUs, double serverComputeUs, int windows, boolean stable,
    boolean complete, long overThreshold)
{
    /** @return the share of successful requests over the latency threshold, 0 to 1 (0 without requests) */
    public double overThresholdFraction()
    {
        return requests == 0 ? 0 : (double)overThreshold / requests;
    }

    /**
     * Latency statistics, microseconds.
     *
     * @param min    minimum
     * @param p50    median
     * @param p90    90th percentile
     * @param p95    95th percentile
     * @param p99    99th percentile
     * @param p999   99.9th percentile
     * @param max    maximum
     * @param mean   mean
     * @param stddev standard deviation
     */
    public record Latency(double min, double p50, double p90, double p95, double p99, double p999, double max,
        double mean, double stddev)
    {
        /**
         * @param histogram latencies in nanoseconds
         * @return the statistics in microseconds (NaN for an empty histogram)
         */
        static Latency of(final Histogram histogram)
        {
            if (histogram.getTotalCount() == 0)
            {
                return new Latency(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, Double.NaN);
            }
            return new Latency(us(histogram.getMinValue()), us(histogram.getValueAtPercentile(50)),
                us(histogram.getValueAtPercentile(90)), us(histogram.getValueAtPercentile(95)),
                us(histogram.getValueAtPercentile(99)), us(histogram.getValueAtPercentile(99.9)),
                us(histogram.getMaxValue()), histogram.getMean() / 1000.0, histogram.getStdDeviation() / 1000.0);
        }

        private static double us(final long ns)
        {
            return ns / 1000.0;
        }

        /**
         * @param name {@code p50}, {@code p90}, {@code p95}, {@code p99}, {@code p99.9} or {@code avg}
         * @return that statistic
         */
        public double get(final String name)
        {
            return switch (name)
            {
                case "p50" -> p50;
                case "p90" -> p90;
                case "p95" -> p95;
                case "p99" -> p99;
                case "p99.9", "p999" -> p999;
                case "avg", "mean" -> mean;
                default -> throw PerfException.usage("unknown latency statistic '" + name
                    + "'; expected p50, p90, p95, p99, p99.9 or avg");
            };
        }
    }

    /**
     * Merges windows into a level result.
     *
     * @param level     the level
     * @param batchSize rows per request
     * @param merged    the windows to report (the last three, or fewer)
     * @param measured  every window measured for the level
     * @param stable    whether the windows were stable
     * @param complete  false when interrupted
     * @param thresholdUs the latency threshold in microseconds whose violations are counted; 0 for none
     * @return the result
     */
    static LevelResult of(final double level, final int batchSize, final List<Window> merged, final int measured,
        final boolean stable, final boolean complete, final double thresholdUs)
    {
        final Histogram all = new Histogram(3);
        long errors = 0;
        long delayed = 0;
        long durationNs = 0;
        ServerCounters server = null;
        boolean haveServer = true;
        for (final Window window : merged)
        {
            all.add(window.latencies());
            errors += window.errors();
            delayed += window.delayed();
            durationNs += window.durationNs();
            if (window.server() == null)
            {
                haveServer = false;
            }
            else
            {
                server = server == null ? window.server() : server.plus(window.server());
            }
        }
        final double seconds = durationNs / 1e9;
        final double rps = seconds == 0 ? 0 : all.getTotalCount() / seconds;
        final boolean stats = haveServer && server != null;
        return new LevelResult(level, all.getTotalCount(), errors, delayed, seconds, rps, rps * batchSize,
            Latency.of(all), stats ? server.averageBatchSize() : Double.NaN,
            stats ? server.perRequestMicros(server.requestNs()) : Double.NaN,
            stats ? server.perRequestMicros(server.queueNs()) : Double.NaN,
            stats ? server.perRequestMicros(server.computeInputNs() + server.computeInferNs()
                + server.computeOutputNs()) : Double.NaN,
            measured, stable, complete, countAbove(all, thresholdUs));
    }

    private static long countAbove(final Histogram latencies, final double thresholdUs)
    {
        if (!(thresholdUs > 0) || latencies.getTotalCount() == 0)
        {
            return 0;
        }
        final long thresholdNs = (long)Math.floor(thresholdUs * 1000);
        return latencies.getTotalCount() - latencies.getCountBetweenValues(0, thresholdNs);
    }
}
