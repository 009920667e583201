package io.ingot.device;

import io.ingot.cuda.CudaException;
import io.ingot.cuda.CudaRuntime;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Discovery through the real CUDA runtime: on this machine, the no-driver path (cudaErrorInsufficientDriver). */
class DeviceDiscoveryTest
{
    @Test
    void withoutADriverThereAreNoDevicesAndTheReasonNamesTheDriverError()
    {
        assumeTrue(CudaRuntime.cudaDriverGetVersion() == 0, "a CUDA driver is installed here; the no-driver path "
            + "cannot be exercised");

        final DeviceDiscovery.Result result = DeviceDiscovery.discover();

        assertFalse(result.hasDevices());
        assertTrue(result.devices().isEmpty());
        assertTrue(result.reason().contains("cudaErrorInsufficientDriver (35)"), result.reason());
        assertTrue(result.reason().contains("No usable GPU"), result.reason());
        assertTrue(result.runtimeVersion() >= 13000, "runtime " + result.runtimeVersion());
        assertEquals(0, result.driverVersion());
    }

    @Test
    void withoutADriverDeviceResourcesFailWithTheDriverErrorAndSizesAreCheckedFirst()
    {
        final IllegalArgumentException negative =
            assertThrows(IllegalArgumentException.class, () -> DeviceBuffer.allocate(-1));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());

        assumeTrue(CudaRuntime.cudaDriverGetVersion() == 0, "a CUDA driver is installed here");
        assertTrue(assertThrows(CudaException.class, CudaStream::create).isNoUsableGpu());
        assertTrue(assertThrows(CudaException.class, CudaEvent::create).isNoUsableGpu());
        assertTrue(assertThrows(CudaException.class, () -> DeviceBuffer.allocate(1024)).isNoUsableGpu());
        try (Arena arena = Arena.ofConfined(); CudaPinnedAllocator allocator = new CudaPinnedAllocator())
        {
            final CudaException pinned = assertThrows(CudaException.class, () -> allocator.allocate(4096, arena));
            assertEquals("cudaHostAlloc", pinned.call());
        }
    }

    @Test
    void theResultRequiresAReasonAndCopiesItsDevices()
    {
        assertThrows(NullPointerException.class, () -> new DeviceDiscovery.Result(List.of(), null, 0, 0));
        final List<CudaDevice> devices = new ArrayList<>();
        final DeviceDiscovery.Result result = new DeviceDiscovery.Result(devices, "none", 13000, 0);
        devices.add(new CudaDevice(0, "x", 9, 0, 1, 1, "0000:00:00.0"));
        assertTrue(result.devices().isEmpty(), "later changes to the caller's list do not leak in");
    }

    @Test
    void aDeviceSummarisesItselfForLogs()
    {
        final CudaDevice device = new CudaDevice(0, "Test GPU", 9, 0, 132, 140L << 30, "0000:3b:00.0");
        assertEquals("9.0", device.computeCapability());
        assertEquals("0: Test GPU (sm_90, 132 SMs, 140.0 GiB, 0000:3b:00.0)", device.summary());
        assertThrows(IllegalArgumentException.class, () -> new CudaDevice(-1, "x", 9, 0, 1, 1, "p"));
    }
}
