package io.ingot.server.testing;

import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;

/** What the frontend's fuzz tests share: a registered region to reference, and a count of buffers not released. */
public final class FuzzFixtures
{
    /** The name of the region {@link #registryWithRegion} registers. */
    public static final String REGION = "r";

    private FuzzFixtures()
    {
    }

    /**
     * @param object a shared-memory object of at least 4096 bytes
     * @return a registry over {@code /dev/shm} with its first 4096 bytes registered as {@value #REGION}
     */
    public static SystemSharedMemoryRegistry registryWithRegion(final ShmObject object)
    {
        final SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm();
        registry.register(REGION, object.key(), 0, 4096);
        return registry;
    }

    /**
     * @param allocator a pooled allocator used only by the code under test
     * @return the buffers it handed out and that were not released yet
     */
    public static long liveBuffers(final PooledByteBufAllocator allocator)
    {
        return allocator.metric().directArenas().stream().mapToLong(PoolArenaMetric::numActiveAllocations).sum()
            + allocator.metric().heapArenas().stream().mapToLong(PoolArenaMetric::numActiveAllocations).sum();
    }
}
