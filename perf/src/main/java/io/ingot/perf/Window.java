package io.ingot.perf;

import org.HdrHistogram.Histogram;

/**
 * One measurement window: the latencies of the requests that completed in it, its failures, and the server's
 * counters over it.
 *
 * @param durationNs the window's length
 * @param latencies  latencies of the successful requests, nanoseconds
 * @param errors     failed requests
 * @param delayed    requests that started later than scheduled (open loop)
 * @param server     the server's counters over the window, or {@code null} without statistics
 */
record Window(long durationNs, Histogram latencies, long errors, long delayed, ServerCounters server)
{
    /** @return successful requests per second. */
    double requestsPerSecond()
    {
        return latencies.getTotalCount() * 1e9 / durationNs;
    }

    /** @return the mean latency in nanoseconds (NaN without requests). */
    double meanNs()
    {
        return latencies.getTotalCount() == 0 ? Double.NaN : latencies.getMean();
    }
}
