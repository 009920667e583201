package io.ingot.server.net;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts a listener's open connections against a maximum. Thread-safe.
 */
public final class ConnectionLimiter
{
    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    /**
     * @param max the most connections open at once, &gt; 0
     */
    public ConnectionLimiter(final int max)
    {
        if (max <= 0)
        {
            throw new IllegalArgumentException("the connection limit must be positive, was " + max);
        }
        this.max = max;
    }

    /** @return true and counts one more connection, or false when {@link #max()} are open */
    public boolean tryOpen()
    {
        while (true)
        {
            final int current = open.get();
            if (current >= max)
            {
                return false;
            }
            if (open.compareAndSet(current, current + 1))
            {
                return true;
            }
        }
    }

    /** Counts one connection closed (one that {@link #tryOpen()} counted). */
    public void closed()
    {
        open.decrementAndGet();
    }

    /** @return the connections open now */
    public int open()
    {
        return open.get();
    }

    /** @return the most connections open at once */
    public int max()
    {
        return max;
    }
}
