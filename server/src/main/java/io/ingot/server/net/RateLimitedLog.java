package io.ingot.server.net;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A log line that is written at most once per interval, with how many occurrences the interval swallowed, so that a
 * client repeating a bad request (one-byte gRPC messages, connections over the limit, accepts failing for want of
 * descriptors) costs a bounded amount of log, whatever its rate. Never logs a stack trace: the events it reports
 * are the clients' doing, not the server's.
 *
 * <p>Thread-safe and lock-free; an occurrence that is not logged costs one atomic increment and one read.
 */
public final class RateLimitedLog
{
    /** Default interval between two lines of one log: 10 s. */
    public static final long DEFAULT_INTERVAL_NANOS = 10_000_000_000L;

    private final System.Logger logger;
    private final System.Logger.Level level;
    private final long intervalNanos;
    private final LongSupplier clock;
    private final AtomicLong nextAllowed;
    private final AtomicLong suppressed = new AtomicLong();
    private final AtomicLong total = new AtomicLong();

    /**
     * @param logger        where lines go
     * @param level         their level
     * @param intervalNanos the shortest time between two lines
     */
    public RateLimitedLog(final System.Logger logger, final System.Logger.Level level, final long intervalNanos)
    {
        this(logger, level, intervalNanos, System::nanoTime);
    }

    /**
     * @param logger        where lines go
     * @param level         their level
     * @param intervalNanos the shortest time between two lines
     * @param clock         nanoseconds, as {@link System#nanoTime()} counts them (tests pass their own)
     */
    public RateLimitedLog(final System.Logger logger, final System.Logger.Level level, final long intervalNanos,
        final LongSupplier clock)
    {
        this.logger = logger;
        this.level = level;
        this.intervalNanos = intervalNanos;
        this.clock = clock;
        this.nextAllowed = new AtomicLong(clock.getAsLong() - 1);
    }

    /**
     * Records one occurrence and writes {@code message} if the interval since the last line has passed.
     *
     * @param message what happened this time (only built into a line when written)
     * @return true when a line was written
     */
    public boolean log(final String message)
    {
        total.incrementAndGet();
        final long now = clock.getAsLong();
        final long allowed = nextAllowed.get();
        if (now - allowed < 0 || !nextAllowed.compareAndSet(allowed, now + intervalNanos))
        {
            suppressed.incrementAndGet();
            return false;
        }
        final long swallowed = suppressed.getAndSet(0);
        logger.log(level, swallowed == 0 ? message : message + " (and " + swallowed + " more like it in the last "
            + intervalNanos / 1_000_000_000L + " s)");
        return true;
    }

    /** @return how many occurrences were recorded, logged or not */
    public long occurrences()
    {
        return total.get();
    }
}
