package io.ingot.device;

/**
 * Chooses the {@link PinnedAllocator} for this machine: CUDA page-locked memory when {@link DeviceDiscovery} finds
 * a device, page-aligned off-heap memory otherwise. Discovery runs once per JVM, on first use.
 */
public final class PinnedAllocators
{
    private PinnedAllocators()
    {
    }

    private static final class Discovered
    {
        static final DeviceDiscovery.Result RESULT = DeviceDiscovery.discover();
    }

    /**
     * A new allocator of the kind this machine supports. The choice is made once and cached; the allocator itself
     * is new on every call, so each owner can {@link PinnedAllocator#close() close} its own without stopping
     * anyone else's.
     *
     * @return a {@link CudaPinnedAllocator} when a CUDA device was found, a {@link HostPinnedAllocator} otherwise
     */
    public static PinnedAllocator automatic()
    {
        return forDiscovery(Discovered.RESULT);
    }

    /** @return the cached discovery result {@link #automatic()} chose by; its reason says why */
    public static DeviceDiscovery.Result discovery()
    {
        return Discovered.RESULT;
    }

    /**
     * @param result a discovery result
     * @return a {@link CudaPinnedAllocator} when {@code result} has devices, a {@link HostPinnedAllocator} otherwise
     */
    public static PinnedAllocator forDiscovery(final DeviceDiscovery.Result result)
    {
        return result.hasDevices() ? new CudaPinnedAllocator() : new HostPinnedAllocator();
    }
}
