package io.ingot.agent;

/**
 * Busy-spins: every idle pass is one {@link Thread#onSpinWait()}. The lowest wake-up latency, one core busy per
 * thread; its owner never arms a {@link Bell}, so wakers never make a system call for it. Owned by one thread.
 */
public final class SpinningIdleStrategy implements IdleStrategy
{
    @Override
    public void idle(final int workCount, final long maxSleepNanos)
    {
        if (workCount <= 0)
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset()
    {
    }

    @Override
    public long sleeps()
    {
        return 0;
    }

    @Override
    public long wakeUps()
    {
        return 0;
    }
}
