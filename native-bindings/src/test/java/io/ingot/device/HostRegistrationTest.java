package io.ingot.device;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** Registering existing memory falls back cleanly, with its reason, wherever it cannot pin. */
class HostRegistrationTest
{
    private static final CudaDevice DEVICE = new CudaDevice(0, "Test GPU", 9, 0, 132, 140L << 30, "0000:3b:00.0");

    @Test
    void withoutADeviceTheMemoryStaysPageableAndSaysWhy()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(1 << 16, 4096);
            final HostRegistration registration = HostRegistration.register(memory,
                new DeviceDiscovery.Result(List.of(), "cudaGetDeviceCount: cudaErrorInsufficientDriver (35)", 13000,
                    0));
            assertFalse(registration.isDevicePinned());
            assertEquals("no CUDA device: cudaGetDeviceCount: cudaErrorInsufficientDriver (35)",
                registration.reason());
            assertSame(memory, registration.memory());
            registration.close();
            registration.close();
        }
    }

    @Test
    void aDriverThatRefusesLeavesTheMemoryPageableWithTheCudaError()
    {
        // On this machine the real libcudart answers cudaHostRegister with "no usable driver" (35): a discovery
        // that claimed a device must still end in a clean, explained fallback.
        assumeFalse(PinnedAllocators.discovery().hasDevices(), "a real GPU is present: the GPU test covers it");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(1 << 16, 4096);
            final HostRegistration registration = HostRegistration.register(memory,
                new DeviceDiscovery.Result(List.of(DEVICE), "found 1", 13000, 13000));
            assertFalse(registration.isDevicePinned());
            assertTrue(registration.reason().startsWith("cudaHostRegister of 65536 bytes failed: "),
                registration.reason());
            registration.close();
        }
    }

    @Test
    void heapMemoryIsRefused()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> HostRegistration.register(MemorySegment.ofArray(new byte[64])));
        assertTrue(error.getMessage().contains("native memory"), error.getMessage());
    }
}
