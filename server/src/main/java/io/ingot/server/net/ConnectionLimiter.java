package io.ingot.server.net;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts a listener's open connections against a maximum. Thread-safe.
 */
public final class ConnectionLimiter
{
    /** The most connections a listener accepts by default, where the process may open enough descriptors. */
    public static final int DEFAULT_MAX = 4096;

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

    /**
     * A default that the process's descriptor limit can honour: {@value #DEFAULT_MAX}, or a quarter of
     * {@code RLIMIT_NOFILE} where that is lower (at least 64), so that the HTTP and gRPC listeners at their limits
     * still leave descriptors for the metrics listener, the IPC region, the model files and the logs.
     *
     * @return the default connection limit of a listener
     */
    public static int defaultMax()
    {
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix)
        {
            return (int) Math.max(64, Math.min(DEFAULT_MAX, unix.getMaxFileDescriptorCount() / 4));
        }
        return DEFAULT_MAX;
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
