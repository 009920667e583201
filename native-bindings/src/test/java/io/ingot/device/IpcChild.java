package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.io.File;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The other process of the IPC GPU test: opens an exported device allocation, copies it to the host and prints its
 * CRC-32C as {@code crc32c=<value>}. Exits 1 with the error on failure.
 */
public final class IpcChild
{
    private IpcChild()
    {
    }

    /**
     * @param args the handle as hex, and the allocation's size in bytes
     */
    public static void main(final String[] args)
    {
        try
        {
            CudaRuntime.cudaSetDevice(0);
            final long size = Long.parseLong(args[1]);
            try (Arena arena = Arena.ofConfined();
                 DeviceBuffer mapped = DeviceBuffer.openIpc(IpcMemHandle.fromHex(args[0]), size))
            {
                final MemorySegment host = new CudaPinnedAllocator().allocate(size, arena);
                mapped.copyToHost(0, host);
                final CRC32C crc = new CRC32C();
                crc.update(host.asByteBuffer());
                System.out.println("crc32c=" + crc.getValue());
            }
        }
        catch (final RuntimeException failure)
        {
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    /**
     * @return a class path holding this class and the bindings, wherever the test runner loaded them from
     *         (surefire's folders or the GPU bundle's)
     */
    static String classPath()
    {
        return location(IpcChild.class) + File.pathSeparator + location(CudaRuntime.class);
    }

    private static String location(final Class<?> type)
    {
        try
        {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
        catch (final URISyntaxException impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }
}
