package io.ingot.api;

/**
 * What Ingot's batcher and instance threads do while there is no work.
 */
public enum IdleMode
{
    /** Block (park): an idle server uses no CPU. The default. */
    BLOCKING,
    /** Spin briefly, then yield, then park: lower wake-up latency at the cost of some CPU while idle. */
    BACKOFF,
    /** Busy-spin: the lowest latency, one core per spinning thread. For benchmarks and dedicated machines. */
    SPINNING
}
