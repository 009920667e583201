package io.ingot.server.shm;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.SharedMemory;
import io.ingot.libc.Posix;
import io.ingot.server.testing.ShmObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The registry against real objects in {@code /dev/shm}. The refusals are the defects of issue 14: a key that is a
 * symbolic link ({@code /dev/shm/x -> /etc/os-release} let a client read and write any file the server could open),
 * Ingot's own IPC region files, objects of other users, special files, and objects truncated after registration
 * (which faulted into a 500). Triton opens keys with glibc's {@code shm_open} (shared_memory_manager.cc,
 * OpenSharedMemoryRegion), which adds {@code O_NOFOLLOW}.
 */
class SystemSharedMemoryRegistryTest
{
    private static Path devShm(final String prefix)
    {
        return Path.of("/dev/shm", prefix + UUID.randomUUID().toString().replace("-", ""));
    }

    private static InferenceException refused(final SystemSharedMemoryRegistry registry, final String key)
    {
        final InferenceException refused = assertThrows(InferenceException.class,
            () -> registry.register("r", key, 0, 16));
        assertEquals(ErrorCode.INVALID_ARG, refused.code(), refused.getMessage());
        assertEquals(400, refused.code().httpStatus());
        assertTrue(refused.getMessage().contains("region 'r'") && refused.getMessage().contains(key),
            refused.getMessage());
        assertTrue(registry.status(null).isEmpty());
        return refused;
    }

    @Test
    void aSymbolicLinkPlantedInDevShmIsRefusedNamingTheReason() throws IOException
    {
        final Path link = devShm("ingot_test_link_");
        Files.createSymbolicLink(link, Path.of("/etc/os-release"));
        try (SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            final InferenceException refused = refused(registry, "/" + link.getFileName());
            assertTrue(refused.getMessage().contains("is a symbolic link"), refused.getMessage());
        }
        finally
        {
            Files.deleteIfExists(link);
        }
    }

    @Test
    void ingotIpcRegionFilesAreRefusedByNameAndByTheirHeader() throws IOException
    {
        try (SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            final InferenceException byName = refused(registry, "/ingot-demo");
            assertTrue(byName.getMessage().contains("Ingot's own IPC region files"), byName.getMessage());
        }
        // The same bytes under another name (a hard link or a copy of a region file) are refused by the magic.
        final Path disguised = devShm("ingot_test_ipc_");
        try (FileChannel channel = FileChannel.open(disguised, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined())
        {
            channel.truncate(4096);
            channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096, arena)
                .set(SharedMemory.LONG, HeaderDescriptor.MAGIC_OFFSET, HeaderDescriptor.MAGIC);
        }
        try (SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            final InferenceException byHeader = refused(registry, "/" + disguised.getFileName());
            assertTrue(byHeader.getMessage().contains("it is an Ingot IPC region"), byHeader.getMessage());
        }
        finally
        {
            Files.deleteIfExists(disguised);
        }
    }

    @Test
    void directoriesAndFifosAreRefusedWithoutBeingOpenedAsObjects() throws IOException, InterruptedException
    {
        final Path directory = Files.createDirectory(devShm("ingot_test_dir_"));
        final Path fifo = devShm("ingot_test_fifo_");
        try (SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            assertTrue(refused(registry, "/" + directory.getFileName()).getMessage().contains("it is a directory"));
            final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available");
            assertTrue(refused(registry, "/" + fifo.getFileName()).getMessage().contains("not a regular file"));
        }
        finally
        {
            Files.deleteIfExists(directory);
            Files.deleteIfExists(fifo);
        }
    }

    @Test
    void anObjectOfAnotherUserIsRefused() throws IOException
    {
        assumeTrue(Posix.geteuid() == 0, "giving a file to another user needs root; this test runs as uid "
            + Posix.geteuid());
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            final Path file = Path.of("/dev/shm", object.key().substring(1));
            Files.setAttribute(file, "unix:uid", 65534);
            final InferenceException refused = refused(registry, object.key());
            assertTrue(refused.getMessage().contains("owned by user 65534, not by the user this server runs as (0)"),
                refused.getMessage());
        }
    }

    @Test
    void anObjectTruncatedAfterRegistrationIsRefusedAtUseWith400() throws IOException
    {
        try (ShmObject object = new ShmObject(8192);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("r", object.key(), 4096, 4096);
            registry.acquire("r", 0, 4096, "INPUT0").release();
            try (FileChannel channel = FileChannel.open(Path.of("/dev/shm", object.key().substring(1)),
                StandardOpenOption.WRITE))
            {
                channel.truncate(4100);
            }
            registry.acquire("r", 0, 4, "INPUT0").release();
            final InferenceException truncated = assertThrows(InferenceException.class,
                () -> registry.acquire("r", 0, 16, "INPUT0"));
            assertEquals(ErrorCode.INVALID_ARG, truncated.code());
            assertTrue(truncated.getMessage().contains("is now 4100 bytes: tensor 'INPUT0' needs bytes up to 4112"),
                truncated.getMessage());
            assertEquals(0, registry.status("r").getFirst().holders());
        }
    }

    @Test
    void namesEchoedInRefusalsAreCut()
    {
        try (SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            final String longName = "n".repeat(20_000);
            final InferenceException unknown = assertThrows(InferenceException.class,
                () -> registry.acquire(longName, 0, 8, "INPUT0"));
            assertTrue(unknown.getMessage().length() < 600, "message of " + unknown.getMessage().length() + " chars");
            assertTrue(unknown.getMessage().contains("(20000 characters)"), unknown.getMessage());
        }
    }

    @Test
    void registeredRegionIsReadAndWrittenInPlace()
    {
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            object.memory().set(ValueLayout.JAVA_INT_UNALIGNED, 1024 + 8, 42);
            registry.register("r", object.key(), 1024, 2048);
            final ShmSlice slice = registry.acquire("r", 8, 16, "INPUT0");
            assertEquals(42, slice.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            slice.memory().set(ValueLayout.JAVA_INT_UNALIGNED, 4, 7);
            assertEquals(7, object.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 1024 + 12));
            slice.release();
            final SharedMemoryRegion status = registry.status("r").getFirst();
            assertEquals(object.key(), status.key());
            assertEquals(1024, status.offset());
            assertEquals(2048, status.byteSize());
        }
    }

    @Test
    void referencesOutsideTheRegionOrToUnknownRegionsAreRefused()
    {
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("r", object.key(), 0, 64);
            // Triton's messages, server src/shared_memory_manager.cc GetMemoryInfo, with Ingot's detail after them.
            final InferenceException bounds = assertThrows(InferenceException.class,
                () -> registry.acquire("r", 60, 8, "OUTPUT0"));
            assertEquals(ErrorCode.INVALID_ARG, bounds.code());
            assertEquals("Invalid offset + byte size for shared memory region: 'r' (tensor 'OUTPUT0': offset 60, "
                + "byte_size 8, region of 64 bytes)", bounds.getMessage());
            final InferenceException offset = assertThrows(InferenceException.class,
                () -> registry.acquire("r", 64, 0, "OUTPUT0"));
            assertTrue(offset.getMessage().startsWith("Invalid offset for shared memory region: 'r'"),
                offset.getMessage());
            // Offsets are unsigned 64-bit: 2^64-1 (-1L) and 2^63 (Long.MIN_VALUE) are offsets past the region.
            for (final long huge : new long[] {-1L, Long.MIN_VALUE, -64L})
            {
                final InferenceException far = assertThrows(InferenceException.class,
                    () -> registry.acquire("r", huge, 8, "INPUT0"));
                assertTrue(far.getMessage().startsWith("Invalid offset for shared memory region: 'r' (tensor "
                    + "'INPUT0': offset " + Long.toUnsignedString(huge)), far.getMessage());
            }
            final InferenceException overflow = assertThrows(InferenceException.class,
                () -> registry.acquire("r", 8, -4L, "INPUT0"));
            assertEquals("Integer overflow detected: byte_size (18446744073709551612) + offset (8) exceeds maximum "
                + "value (18446744073709551615) for region 'r'", overflow.getMessage());
            final InferenceException unknown = assertThrows(InferenceException.class,
                () -> registry.acquire("nope", 0, 8, "INPUT0"));
            assertEquals(ErrorCode.NOT_FOUND, unknown.code());
            assertTrue(unknown.getMessage().startsWith("Unable to find shared memory region: 'nope'"),
                unknown.getMessage());
            assertEquals(0, registry.status("r").getFirst().holders());
        }
    }

    @Test
    void registrationIsValidated()
    {
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("r", object.key(), 0, 4096);
            assertEquals(ErrorCode.ALREADY_EXISTS,
                assertThrows(InferenceException.class, () -> registry.register("r", object.key(), 0, 16)).code());
            final InferenceException tooLarge = assertThrows(InferenceException.class,
                () -> registry.register("big", object.key(), 4000, 200));
            assertTrue(tooLarge.getMessage().startsWith("failed to register shared memory region 'big': invalid args"),
                tooLarge.getMessage());
            assertThrows(InferenceException.class, () -> registry.register("x", "/ingot_no_such_object", 0, 16));
            final InferenceException traversal = assertThrows(InferenceException.class,
                () -> registry.register("x", "/../../etc/passwd", 0, 16));
            assertTrue(traversal.getMessage().contains("not a POSIX shared memory name"), traversal.getMessage());
            assertThrows(InferenceException.class, () -> registry.register("x", "///", 0, 16));
            assertThrows(InferenceException.class,
                () -> registry.register("x", "/triton_python_backend_shm_region_1", 0, 16));
            assertEquals(ErrorCode.NOT_FOUND, assertThrows(InferenceException.class,
                () -> registry.status("missing")).code());
        }
    }

    @Test
    void unregisterWhileInUseKeepsTheRegionUntilItsLastHolderReleasesItAsTritonDoes()
    {
        // Triton's shared_memory_manager.cc UnregisterHelper: a region in use is only marked awaiting unregister;
        // it stays in the status, still resolves for new requests and keeps its name; the last request unmaps it.
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("r", object.key(), 0, 4096);
            final SharedMemoryRegion region = registry.status("r").getFirst();
            final ShmSlice first = registry.acquire("r", 0, 8, "INPUT0");
            registry.unregister("r");
            registry.unregisterAll();
            registry.unregister("never_registered");
            assertEquals(List.of(region), registry.status(null), "still listed while a request uses it");
            assertFalse(region.isRegistered());
            final ShmSlice second = registry.acquire("r", 8, 8, "INPUT1");
            assertEquals(2, region.holders());
            assertEquals(ErrorCode.ALREADY_EXISTS, assertThrows(InferenceException.class,
                () -> registry.register("r", object.key(), 0, 64)).code(), "its name is still taken");

            first.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 99L);
            first.release();
            assertTrue(region.isMapped(), "the second request still holds it");
            assertEquals(List.of(region), registry.status(null));
            second.release();
            assertFalse(region.isMapped(), "the last holder unmapped it");
            assertTrue(registry.status(null).isEmpty(), "and it left the status");
            assertEquals(ErrorCode.NOT_FOUND, assertThrows(InferenceException.class,
                () -> registry.acquire("r", 0, 8, "INPUT0")).code());
            assertEquals(99L, object.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0));

            registry.register("r", object.key(), 0, 64);
            assertTrue(registry.status("r").getFirst().isMapped(), "the name is free again");
            registry.unregister("r");
            assertTrue(registry.status(null).isEmpty(), "a region nobody holds goes at once");
        }
    }

    @Test
    void disabledRegistryRefusesRegistrationAndUnregistrationAsTritonDoes()
    {
        // server src/http_server.cc HandleSystemSharedMemory and src/grpc/grpc_server.cc refuse register and
        // unregister alike while client shared memory is disabled, with kClientShmDisabledErrorStr (src/common.h).
        final String tritonText = "Client shared memory is disabled. Start the server with "
            + "'--allow-client-shm=true' to enable.";
        try (SystemSharedMemoryRegistry registry = new SystemSharedMemoryRegistry(Path.of("/dev/shm"), false))
        {
            final InferenceException disabled = assertThrows(InferenceException.class,
                () -> registry.register("r", "/x", 0, 16));
            assertEquals(ErrorCode.UNSUPPORTED, disabled.code());
            assertEquals(tritonText, disabled.getMessage());
            final InferenceException one = assertThrows(InferenceException.class, () -> registry.unregister("r"));
            assertEquals(ErrorCode.UNSUPPORTED, one.code());
            assertEquals(tritonText, one.getMessage());
            assertEquals(tritonText, assertThrows(InferenceException.class, registry::unregisterAll).getMessage());
        }
    }

    @Test
    void slicesOfOneObjectOverlapAcrossRegistrations()
    {
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("a", object.key(), 0, 1024);
            registry.register("b", object.key(), 512, 1024);
            final ShmSlice first = registry.acquire("a", 600, 16, "OUTPUT0");
            final ShmSlice second = registry.acquire("b", 90, 16, "OUTPUT1");
            final ShmSlice apart = registry.acquire("b", 200, 16, "OUTPUT1");
            assertTrue(first.overlaps(second));
            assertFalse(first.overlaps(apart));
            first.release();
            second.release();
            apart.release();
        }
    }
}
