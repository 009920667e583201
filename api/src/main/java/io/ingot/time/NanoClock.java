package io.ingot.time;

/**
 * The time Ingot's core reads: its schedulers and batch-formation policies, its instances' statistics and traces, its
 * timekeeper, and the shared-memory server over it. One clock is injected into each of them
 * ({@code CoreOptions.Builder.clock}, {@code InferenceCore.clock()}), so that nothing there reads the system's clocks
 * itself (an architecture rule checks it) and a test can hand a policy a clock it moves by hand.
 *
 * <p>{@link #nanoTime()} is monotonic nanoseconds on {@link System#nanoTime()}'s scale, and {@link #SYSTEM} is that
 * clock. A core's idle threads sleep until deadlines they compute on this clock for the difference to
 * {@code System.nanoTime()} (the duty-cycle machinery, {@code io.ingot.agent}, sits below this module), so a clock
 * that runs behind the system's wakes them early (they look and sleep again) and one that runs ahead makes them
 * sleep past their deadlines until something rings them. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface NanoClock
{
    /** The system's clocks: {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    NanoClock SYSTEM = System::nanoTime;

    /** @return the current time in nanoseconds */
    long nanoTime();

    /**
     * @return the wall-clock time in milliseconds since the epoch, for timestamps a user reads (a model's last
     *     inference); the system's unless overridden
     */
    default long currentTimeMillis()
    {
        return System.currentTimeMillis();
    }

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
