package io.ingot.agent;

import java.util.function.BooleanSupplier;

/**
 * Spins, then yields, then sleeps on a {@link Bell} until a waker rings or the pass's deadline comes: Agrona's
 * back-off with the timed park replaced by a wake-up that comes as soon as there is work. The phases are bounded by
 * time, not by count, so that a loaded machine (where one yield may last a time slice) does not keep a waiter out of
 * its sleep, and an idle one does not spin longer than intended.
 *
 * <ul>
 *   <li>{@link #blocking}: a short spin ({@value #SPIN_NANOS} ns), then {@value #BLOCKING_YIELD_NANOS} ns of yielding,
 *       then sleep — an idle thread costs nothing, and a request that follows the last one closely (a caller that
 *       submits again as soon as it has its response) still finds its thread awake;</li>
 *   <li>{@link #backoff}: the same spin, then {@value #BACKOFF_YIELD_NANOS} ns of yielding, then sleep.</li>
 * </ul>
 *
 * <p>Why the spin is so short and the rest yields: on a machine whose cores are shared (two cores, other work), the
 * thread a waiter waits for is often queued behind it on the same core. A waiter that spins keeps it off that core for
 * the whole spin — on a loaded 2-core machine a 20 µs spin on each side of a hand-off cost 53.5 µs per round trip where
 * a park cost 7.1 µs in the same run ({@code docs/benchmarks/hot-path.md}, section 0) — while one that yields lets it
 * run at once, and still catches a quick answer without a wake-up when the cores are free.
 *
 * <p>Before it sleeps, the strategy arms the bell and asks {@code pending} once more (the {@link Bell} protocol), so a
 * ring is never lost. Owned by one thread.
 */
public final class BackoffIdleStrategy implements IdleStrategy
{
    /** How long {@link #blocking} and {@link #backoff} spin before anything else. */
    public static final long SPIN_NANOS = 1_000L;
    /** How long {@link #blocking} yields after spinning. */
    public static final long BLOCKING_YIELD_NANOS = 19_000L;
    /** How long {@link #backoff} yields after spinning. */
    public static final long BACKOFF_YIELD_NANOS = 1_000_000L;

    private final Bell bell;
    private final BooleanSupplier pending;
    private final long spinNanos;
    private final long yieldNanos;
    private long idleSince;
    // Written by the owner only, read by monitoring threads.
    private volatile long sleeps;
    private volatile long wakeUps;

    /**
     * @param bell       where the owner sleeps and wakers ring
     * @param pending    whether work is waiting; asked after arming, before sleeping; must not block
     * @param spinNanos  how long an idle period spins first
     * @param yieldNanos how long it then yields the processor (0: sleep right after spinning)
     */
    public BackoffIdleStrategy(final Bell bell, final BooleanSupplier pending, final long spinNanos,
        final long yieldNanos)
    {
        this.bell = bell;
        this.pending = pending;
        this.spinNanos = spinNanos;
        this.yieldNanos = yieldNanos;
    }

    /**
     * @param bell    where the owner sleeps
     * @param pending whether work is waiting
     * @return Ingot's BLOCKING idle mode: a 1 µs spin, yielding until about 20 µs, then sleep
     */
    public static BackoffIdleStrategy blocking(final Bell bell, final BooleanSupplier pending)
    {
        return new BackoffIdleStrategy(bell, pending, SPIN_NANOS, BLOCKING_YIELD_NANOS);
    }

    /**
     * @param bell    where the owner sleeps
     * @param pending whether work is waiting
     * @return Ingot's BACKOFF idle mode: spin, yield for about a millisecond, then sleep
     */
    public static BackoffIdleStrategy backoff(final Bell bell, final BooleanSupplier pending)
    {
        return new BackoffIdleStrategy(bell, pending, SPIN_NANOS, BACKOFF_YIELD_NANOS);
    }

    @Override
    public void idle(final int workCount, final long maxSleepNanos)
    {
        if (workCount > 0)
        {
            reset();
            return;
        }
        final long now = System.nanoTime();
        if (idleSince == 0)
        {
            idleSince = now | 1;  // never 0 once started
        }
        final long idleFor = now - idleSince;
        if (idleFor < spinNanos)
        {
            Thread.onSpinWait();
            return;
        }
        if (idleFor < spinNanos + yieldNanos)
        {
            Thread.yield();
            return;
        }
        final int token = bell.arm();
        try
        {
            if (pending.getAsBoolean())
            {
                reset();
                return;
            }
            sleeps++;
            if (bell.sleep(token, maxSleepNanos))
            {
                wakeUps++;
                reset();
            }
        }
        finally
        {
            bell.disarm();
        }
    }

    @Override
    public void reset()
    {
        idleSince = 0;
    }

    @Override
    public long sleeps()
    {
        return sleeps;
    }

    @Override
    public long wakeUps()
    {
        return wakeUps;
    }
}
