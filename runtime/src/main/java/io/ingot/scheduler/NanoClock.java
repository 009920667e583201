package io.ingot.scheduler;

/**
 * The time a scheduler runs on, in nanoseconds of a monotonic clock ({@link System#nanoTime()} in production).
 * Injected, so that batch-formation policies can be tested with a clock the test moves by hand. Implementations must
 * be thread-safe.
 */
@FunctionalInterface
public interface NanoClock
{
    /** The system's monotonic clock. */
    NanoClock SYSTEM = System::nanoTime;

    /** @return the current time in nanoseconds */
    long nanoTime();
}
