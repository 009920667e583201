package io.ingot.api;

/**
 * What Ingot's threads do while there is no work. {@link CoreOptions#idleMode()} sets it for every thread of a core:
 * each model instance's thread and the core's timekeeper (the thread that answers queue timeouts and cancellations
 * while every instance is busy) — and the shared-memory server's thread, which waits as its core does
 * ({@link InferenceCore#idleMode()}) unless its own {@code IpcServerOptions} say otherwise; {@code ingot serve
 * --idle-mode} sets it for the whole server. A thread that sleeps is woken by whoever gives it work, with a system
 * call only when it is asleep or about to be.
 *
 * <p>It does not govern callers' threads: a caller waiting on a {@link ResponseFuture} spins for its own
 * {@link ResponseFuture#spinNanos()} and then parks; one waiting on a {@code CompletableFuture} waits as the JDK does.
 */
public enum IdleMode
{
    /**
     * Spin 1 µs, yield the processor until about 20 µs have passed, then sleep until woken or until the thread's next
     * deadline (a queue delay, a queue timeout):
     * an idle server uses no CPU, and a request that follows the last one closely still finds its thread awake. The
     * default.
     */
    BLOCKING,
    /** Spin 1 µs, then yield the processor for about 1 ms, then sleep: fewer sleeps, some CPU while idle. */
    BACKOFF,
    /**
     * Busy-spin, never sleep: the lowest wake-up latency, and wakers of instances never make a system call, but every
     * instance thread keeps one core busy. The core's timekeeper backs off as under {@link #BACKOFF} (nobody waits on
     * it). For benchmarks and dedicated machines.
     */
    SPINNING
}
