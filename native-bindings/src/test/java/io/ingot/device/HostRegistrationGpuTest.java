package io.ingot.device;

import io.ingot.cuda.CudaRuntime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A shared-memory mapping (as the IPC server's data region) registered with {@code cudaHostRegister}: pinned, copied
 * to and from the device with the bytes intact, unregistered on close. Tagged {@code gpu}.
 */
@Tag("gpu")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HostRegistrationGpuTest
{
    @Test
    void aSharedMemoryMappingIsPinnedAndCopiedByTheDevice() throws IOException
    {
        GpuTestSupport.requireDevice(HostRegistrationGpuTest.class);
        CudaRuntime.cudaSetDevice(0);
        final long size = 8L << 20;
        final Path directory = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir"));
        final Path file = Files.createTempFile(directory, "ingot-pin-", ".bin");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Arena arena = Arena.ofShared())
        {
            channel.truncate(0).write(java.nio.ByteBuffer.allocate(1), size - 1);
            final MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            GpuTestSupport.fillRandom(mapping, 42);
            try (HostRegistration registration = HostRegistration.register(mapping);
                DeviceBuffer device = DeviceBuffer.allocate(size))
            {
                assertTrue(registration.isDevicePinned(), registration.toString());
                device.copyFromHost(mapping, 0);
                final MemorySegment back = arena.allocate(size, 4096);
                device.copyToHost(0, back);
                assertEquals(-1, mapping.mismatch(back), "the device read the mapping's bytes (seed 42)");
            }
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }
}
