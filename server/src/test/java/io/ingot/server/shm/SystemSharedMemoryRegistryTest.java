package io.ingot.server.shm;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.testing.ShmObject;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemSharedMemoryRegistryTest
{
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
            final InferenceException bounds = assertThrows(InferenceException.class,
                () -> registry.acquire("r", 60, 8, "OUTPUT0"));
            assertEquals(ErrorCode.INVALID_ARG, bounds.code());
            assertTrue(bounds.getMessage().contains("out of bounds") && bounds.getMessage().contains("OUTPUT0")
                && bounds.getMessage().contains("64 bytes of region 'r'"), bounds.getMessage());
            final InferenceException unknown = assertThrows(InferenceException.class,
                () -> registry.acquire("nope", 0, 8, "INPUT0"));
            assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
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
            assertTrue(tooLarge.getMessage().contains("invalid args"), tooLarge.getMessage());
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
    void unregisterWhileInUseFreesTheNameAndUnmapsAfterTheLastHolder()
    {
        try (ShmObject object = new ShmObject(4096);
             SystemSharedMemoryRegistry registry = SystemSharedMemoryRegistry.devShm())
        {
            registry.register("r", object.key(), 0, 4096);
            final SharedMemoryRegion region = registry.status("r").getFirst();
            final ShmSlice held = registry.acquire("r", 0, 8, "INPUT0");
            registry.unregister("r");
            assertTrue(registry.status(null).isEmpty());
            assertThrows(InferenceException.class, () -> registry.acquire("r", 0, 8, "INPUT1"));
            // The request holding the region still reads and writes it.
            held.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 99L);
            assertTrue(region.isMapped());
            registry.register("r", object.key(), 0, 64);
            held.release();
            assertFalse(region.isMapped());
            assertEquals(99L, object.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            assertTrue(registry.status("r").getFirst().isMapped());
        }
    }

    @Test
    void disabledRegistryRefusesRegistration()
    {
        try (SystemSharedMemoryRegistry registry = new SystemSharedMemoryRegistry(Path.of("/dev/shm"), false))
        {
            final InferenceException disabled = assertThrows(InferenceException.class,
                () -> registry.register("r", "/x", 0, 16));
            assertEquals(ErrorCode.UNSUPPORTED, disabled.code());
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
