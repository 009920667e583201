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

    /**
     * A time plus a duration, saturating at {@link Long#MAX_VALUE} (which every policy reads as "never") instead of
     * overflowing: configured durations are unsigned and may be as long as the field allows.
     *
     * @param timeNs     a time on this clock
     * @param durationNs a duration, {@code >= 0}
     * @return {@code timeNs + durationNs}, or {@link Long#MAX_VALUE} when that does not fit
     */
    static long plus(final long timeNs, final long durationNs)
    {
        return timeNs > Long.MAX_VALUE - durationNs ? Long.MAX_VALUE : timeNs + durationNs;
    }
}
