package io.ingot.device;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The choice between CUDA pinned memory and plain host memory, and the CUDA allocator's argument checks. */
class PinnedAllocatorsTest
{
    private static final CudaDevice DEVICE = new CudaDevice(0, "Test GPU", 9, 0, 132, 140L << 30, "0000:3b:00.0");

    @Test
    void aMachineWithoutDevicesGetsTheHostAllocator()
    {
        final PinnedAllocator allocator =
            PinnedAllocators.forDiscovery(new DeviceDiscovery.Result(List.of(), "no driver", 13000, 0));
        assertInstanceOf(HostPinnedAllocator.class, allocator);
        assertEquals("host", allocator.kind());
    }

    @Test
    void aMachineWithADeviceGetsTheCudaAllocator()
    {
        final PinnedAllocator allocator =
            PinnedAllocators.forDiscovery(new DeviceDiscovery.Result(List.of(DEVICE), "found 1", 13000, 13000));
        assertInstanceOf(CudaPinnedAllocator.class, allocator);
        assertEquals("cuda-host", allocator.kind());
        assertTrue(allocator.isDevicePinned());
        assertEquals(HostPinnedAllocator.PAGE_SIZE, allocator.alignment());
    }

    @Test
    void automaticFollowsTheCachedDiscoveryAndHandsEachCallerItsOwnAllocator()
    {
        final DeviceDiscovery.Result discovery = PinnedAllocators.discovery();
        assertSame(discovery, PinnedAllocators.discovery(), "discovery runs once");
        final PinnedAllocator first = PinnedAllocators.automatic();
        final PinnedAllocator second = PinnedAllocators.automatic();
        assertNotSame(first, second);
        assertEquals(discovery.hasDevices() ? "cuda-host" : "host", first.kind(), discovery.reason());

        first.close();
        if (!discovery.hasDevices())
        {
            try (Arena arena = Arena.ofConfined())
            {
                assertEquals(64, second.allocate(64, arena).byteSize(), "closing one does not stop another");
            }
        }
        second.close();
    }

    @Test
    void theCudaAllocatorChecksItsArgumentsBeforeCallingCuda()
    {
        final IllegalArgumentException flags =
            assertThrows(IllegalArgumentException.class, () -> new CudaPinnedAllocator(8));
        assertTrue(flags.getMessage().contains("was 8"), flags.getMessage());

        final CudaPinnedAllocator allocator = new CudaPinnedAllocator();
        try (Arena arena = Arena.ofConfined())
        {
            final IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> allocator.allocate(-3, arena));
            assertTrue(negative.getMessage().contains("-3"), negative.getMessage());
            allocator.close();
            allocator.close();
            assertThrows(IllegalStateException.class, () -> allocator.allocate(64, arena));
        }
    }
}
