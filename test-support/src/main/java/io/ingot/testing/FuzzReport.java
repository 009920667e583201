package io.ingot.testing;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What a fuzz test reports when it ends (RELIABILITY.md collects these lines): the surface, how many inputs were
 * tried, how many were refused with a specific error, and the heap after a full GC and the direct memory in use
 * before and after, so that a leak per input shows as growth, and the JVM's uptime and CPU time (what the run cost
 * the build). Printed as one line starting with {@code FUZZ}.
 * Thread-safe.
 */
public final class FuzzReport
{
    private final String surface;
    private final LongSupplier pool;
    private final long heapBefore;
    private final long directBefore;
    private final long poolBefore;
    private final AtomicLong tried = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    private FuzzReport(final String surface, final LongSupplier pool)
    {
        this.surface = surface;
        this.pool = pool;
        this.heapBefore = heapAfterGc();
        this.directBefore = directInUse();
        this.poolBefore = pool.getAsLong();
    }

    /**
     * @param surface what is fuzzed ("HTTP infer decoder", ...)
     * @return a report that measured memory now
     */
    public static FuzzReport start(final String surface)
    {
        return new FuzzReport(surface, () -> 0);
    }

    /**
     * @param surface what is fuzzed
     * @param pool    buffers of the code under test still allocated from its pool (Netty's pooled allocator, which
     *                the JVM's direct-memory count does not see): a leak per input shows as growth
     * @return a report that measured memory now
     */
    public static FuzzReport start(final String surface, final LongSupplier pool)
    {
        return new FuzzReport(surface, pool);
    }

    /**
     * Counts one input.
     *
     * @param wasRefused whether the code under test refused it with its specific error
     */
    public void tried(final boolean wasRefused)
    {
        tried.incrementAndGet();
        if (wasRefused)
        {
            refused.incrementAndGet();
        }
    }

    /** @return the inputs tried so far */
    public long inputs()
    {
        return tried.get();
    }

    /** Prints the report line. */
    public void print()
    {
        final long heapAfter = heapAfterGc();
        final long directAfter = directInUse();
        System.out.printf("FUZZ surface=\"%s\" inputs=%d refused=%d accepted=%d heap_after_gc_kib=%d->%d "
            + "direct_kib=%d->%d pool_live_buffers=%d->%d jvm_uptime_ms=%d jvm_cpu_ms=%d%n", surface, tried.get(),
            refused.get(), tried.get() - refused.get(), heapBefore / 1024, heapAfter / 1024, directBefore / 1024,
            directAfter / 1024, poolBefore, pool.getAsLong(),
            ManagementFactory.getRuntimeMXBean().getUptime(),
            ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L));
    }

    private static long heapAfterGc()
    {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long directInUse()
    {
        long used = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                used += pool.getMemoryUsed();
            }
        }
        return used;
    }
}
