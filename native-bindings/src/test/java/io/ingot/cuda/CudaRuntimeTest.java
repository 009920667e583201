package io.ingot.cuda;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The CUDA runtime bindings against the real libcudart.so.13, on a machine with or without a GPU. */
class CudaRuntimeTest
{
    @Test
    void loadsTheCuda13RuntimeAndReportsItsVersion()
    {
        final LoadedLibrary library = CudaRuntime.library();
        assertTrue(library.location().contains("libcudart.so.13"), library.location());

        final int version = CudaRuntime.cudaRuntimeGetVersion();
        assertTrue(version >= 13000 && version < 14000, "expected a CUDA 13.x runtime, got " + version);
        assertTrue(version >= CudaRuntime.CUDART_VERSION,
            "the runtime (" + version + ") is older than the headers the bindings were written against");
    }

    @Test
    void errorNamesAndDescriptionsComeFromTheRuntime()
    {
        assertEquals("cudaSuccess", CudaRuntime.cudaGetErrorName(CudaRuntime.cudaSuccess));
        assertEquals("cudaErrorInsufficientDriver",
            CudaRuntime.cudaGetErrorName(CudaRuntime.cudaErrorInsufficientDriver));
        assertEquals("cudaErrorNotReady", CudaRuntime.cudaGetErrorName(CudaRuntime.cudaErrorNotReady));
        assertTrue(CudaRuntime.cudaGetErrorString(CudaRuntime.cudaErrorMemoryAllocation).contains("memory"),
            CudaRuntime.cudaGetErrorString(CudaRuntime.cudaErrorMemoryAllocation));
    }

    @Test
    void aFailedCallCarriesTheCallTheCodeAndCudasName()
    {
        final CudaException failure = CudaRuntime.failure(CudaRuntime.cudaErrorMemoryAllocation, "cudaMalloc");
        assertEquals("cudaMalloc", failure.call());
        assertEquals(2, failure.code());
        assertEquals("cudaErrorMemoryAllocation", failure.errorName());
        assertFalse(failure.isNoUsableGpu());
        assertTrue(failure.getMessage().startsWith("cudaMalloc failed: cudaErrorMemoryAllocation (2): "),
            failure.getMessage());
        assertFalse(failure.getMessage().contains("No usable GPU"), failure.getMessage());
    }

    @Test
    void stubDriverNoDriverNoDeviceAndDriverMismatchMeanNoUsableGpu()
    {
        for (final int code : List.of(34, 35, 100, 803))
        {
            final CudaException failure = CudaRuntime.failure(code, "cudaGetDeviceCount");
            assertTrue(failure.isNoUsableGpu(), "code " + code);
            assertTrue(failure.getMessage().contains("No usable GPU"), failure.getMessage());
            assertTrue(failure.getMessage().contains(failure.errorName() + " (" + code + ")"), failure.getMessage());
        }
        for (final int code : List.of(1, 2, 46, 101, 700, 999))
        {
            assertFalse(CudaException.isNoUsableGpu(code), "code " + code);
        }
    }

    @Test
    void withoutADriverEveryDeviceCallFailsWithInsufficientDriver()
    {
        assumeTrue(CudaRuntime.cudaDriverGetVersion() == 0, "a CUDA driver is installed here, so the no-driver path "
            + "cannot be exercised");

        final CudaException count = assertThrows(CudaException.class, CudaRuntime::cudaGetDeviceCount);
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, count.code());
        assertEquals("cudaGetDeviceCount", count.call());
        assertTrue(count.isNoUsableGpu());
        assertTrue(count.getMessage().contains("cudaErrorInsufficientDriver (35)"), count.getMessage());

        final CudaException malloc = assertThrows(CudaException.class, () -> CudaRuntime.cudaMalloc(1 << 20));
        assertEquals("cudaMalloc", malloc.call());
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, malloc.code());

        final CudaException stream = assertThrows(CudaException.class,
            () -> CudaRuntime.cudaStreamCreateWithFlags(CudaRuntime.cudaStreamNonBlocking));
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, stream.code());

        // The initialisation failure is sticky: reading the last error does not clear it.
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, CudaRuntime.cudaGetLastError());
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, CudaRuntime.cudaPeekAtLastError());
    }

    @Test
    void negativeSizesAreRejectedBeforeCallingCuda()
    {
        final IllegalArgumentException malloc =
            assertThrows(IllegalArgumentException.class, () -> CudaRuntime.cudaMalloc(-5));
        assertTrue(malloc.getMessage().contains("cudaMalloc") && malloc.getMessage().contains("-5"),
            malloc.getMessage());
        final IllegalArgumentException copy = assertThrows(IllegalArgumentException.class,
            () -> CudaRuntime.cudaMemcpyAsync(MemorySegment.NULL, MemorySegment.NULL, -1,
                CudaRuntime.cudaMemcpyHostToDevice, MemorySegment.NULL));
        assertTrue(copy.getMessage().contains("count must be >= 0, was -1"), copy.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CudaRuntime.cudaHostAlloc(-1, 0));
    }

    @Test
    void outParameterStructsThatAreTooSmallAreRejected()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final IllegalArgumentException properties = assertThrows(IllegalArgumentException.class,
                () -> CudaRuntime.cudaGetDeviceProperties(arena.allocate(512), 0));
            assertTrue(properties.getMessage().contains("1008"), properties.getMessage());
            final IllegalArgumentException handle = assertThrows(IllegalArgumentException.class,
                () -> CudaRuntime.cudaIpcOpenMemHandle(arena.allocate(32), CudaRuntime.cudaIpcMemLazyEnablePeerAccess));
            assertTrue(handle.getMessage().contains("64"), handle.getMessage());
        }
    }
}
