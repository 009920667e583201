package io.ingot.perf;

import org.HdrHistogram.Recorder;

/**
 * Generates one load level until stopped, recording each successful request's latency (nanoseconds) and each
 * failure. A closed loop ({@link ClosedLoop}) or an open loop ({@link OpenLoop}).
 */
sealed interface LoadDriver permits ClosedLoop, OpenLoop
{
    /** Starts sending. */
    void start();

    /** Stops sending and waits (bounded) for the requests in flight. */
    void stop();

    /** @return the latencies recorded so far; {@link Recorder#getIntervalHistogram()} starts a new interval. */
    Recorder latencies();

    /** @return the requests that started later than scheduled since the previous call (open loop only). */
    long takeDelayed();
}
