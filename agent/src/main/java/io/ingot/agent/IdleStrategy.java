package io.ingot.agent;

/**
 * What a thread does in one pass of its duty cycle that found no work, in the manner of Agrona's
 * {@code IdleStrategy}: the caller polls for work, reports how much it did, and calls {@link #idle} again; a strategy
 * escalates from spinning to sleeping as idle passes accumulate, and returns to spinning as soon as work is found.
 * Ingot's family: {@link SpinningIdleStrategy} (never sleeps) and {@link BackoffIdleStrategy} (spins, yields, then
 * sleeps on a {@link Bell} until a waker rings or a deadline passes), configured as Ingot's {@code IdleMode}s.
 *
 * <p>One strategy belongs to one thread.
 */
public interface IdleStrategy
{
    /**
     * One pass of the duty cycle.
     *
     * @param workCount     the work the pass did: {@code > 0} resets the strategy and returns at once
     * @param maxSleepNanos the longest this pass may sleep ({@link Long#MAX_VALUE}: until rung), &gt; 0
     */
    void idle(int workCount, long maxSleepNanos);

    /** Starts the next idle period from its first phase again. */
    void reset();

    /** @return how many times the owner went to sleep (0 for a strategy that never sleeps) */
    long sleeps();

    /** @return how many of those sleeps a waker's ring ended (rather than the deadline) */
    long wakeUps();
}
