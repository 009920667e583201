package io.ingot.ipc;

import java.util.function.BooleanSupplier;

/**
 * How a polling thread waits for work on a {@link Doorbell}: spin, then yield for a bounded time, then sleep in the
 * kernel until a peer rings (or a timeout passes) — Agrona's back-off idle strategy with the timed park replaced by
 * a wake-up that arrives as soon as there is work. The yield phase is bounded by time, not by count, so that a
 * loaded machine (where each yield may last a time slice) does not keep a waiter out of its sleep. Owned by one
 * thread.
 */
public final class DoorbellIdler
{
    private final Doorbell bell;
    private final BooleanSupplier pending;
    private final int maxSpins;
    private final long maxYieldNanos;
    private final boolean spinOnly;
    private int spins;
    private long yieldingSince;
    private volatile long sleeps;
    private volatile long wakeUps;

    /**
     * @param bell      the doorbell peers ring after publishing work
     * @param pending   whether work is waiting (called after arming, before sleeping): must not block
     * @param maxSpins      idle passes that only spin before yielding
     * @param maxYieldNanos how long idle passes yield the processor before sleeping (0: sleep right after spinning)
     */
    public DoorbellIdler(final Doorbell bell, final BooleanSupplier pending, final int maxSpins,
        final long maxYieldNanos)
    {
        this(bell, pending, maxSpins, maxYieldNanos, false);
    }

    private DoorbellIdler(final Doorbell bell, final BooleanSupplier pending, final int maxSpins,
        final long maxYieldNanos, final boolean spinOnly)
    {
        this.bell = bell;
        this.pending = pending;
        this.maxSpins = maxSpins;
        this.maxYieldNanos = maxYieldNanos;
        this.spinOnly = spinOnly;
    }

    /**
     * An idler that only ever spins: the lowest latency, one core busy. It never arms a doorbell, so its peers never
     * need a system call to wake it.
     *
     * @return the idler
     */
    public static DoorbellIdler spinning()
    {
        return new DoorbellIdler(null, null, 0, 0, true);
    }

    /** Starts the next wait with spinning again. */
    public void reset()
    {
        spins = 0;
        yieldingSince = 0;
    }

    /**
     * One idle pass.
     *
     * @param workCount     the work done by the last poll: &gt; 0 resets the back-off and returns at once
     * @param maxSleepNanos the longest sleep of this pass, &gt; 0
     */
    public void idle(final int workCount, final long maxSleepNanos)
    {
        if (workCount > 0)
        {
            reset();
        }
        else if (spinOnly || spins < maxSpins)
        {
            spins++;
            Thread.onSpinWait();
        }
        else if (stillYielding())
        {
            Thread.yield();
        }
        else
        {
            final int seen = bell.arm();
            try
            {
                if (!pending.getAsBoolean())
                {
                    sleeps++;
                    if (bell.sleep(seen, maxSleepNanos))
                    {
                        wakeUps++;
                        reset();
                    }
                }
                else
                {
                    reset();
                }
            }
            finally
            {
                bell.disarm();
            }
        }
    }

    private boolean stillYielding()
    {
        if (maxYieldNanos <= 0)
        {
            return false;
        }
        final long now = System.nanoTime();
        if (yieldingSince == 0)
        {
            yieldingSince = now | 1;  // never 0 once started
            return true;
        }
        return now - yieldingSince < maxYieldNanos;
    }

    /** @return how many times the owner went to sleep */
    public long sleeps()
    {
        return sleeps;
    }

    /** @return how many of those sleeps a peer's ring ended */
    public long wakeUps()
    {
        return wakeUps;
    }
}
