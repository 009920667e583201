package io.ingot.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** cuBLAS loads lazily and, where it is missing, fails with the loader's error on every call. */
class CublasTest
{
    private static boolean cublasInstalled()
    {
        try
        {
            Cublas.library();
            return true;
        }
        catch (final NativeLibraryNotFoundException missing)
        {
            return false;
        }
    }

    @Test
    void whereCublasIsMissingEveryCallThrowsTheLoadersErrorAndCudaStillWorks()
    {
        assumeTrue(!cublasInstalled(), "cuBLAS is installed here; the missing-library path cannot be exercised");

        final NativeLibraryNotFoundException first =
            assertThrows(NativeLibraryNotFoundException.class, () -> Cublas.cublasGetStatusName(0));
        final NativeLibraryNotFoundException second =
            assertThrows(NativeLibraryNotFoundException.class, Cublas::cublasCreate_v2);

        // cuBLASLt is loaded first, so it is the one reported missing.
        assertSame(NativeLibrary.CUBLAS_LT, first.library());
        assertTrue(first.getMessage().contains("libcublasLt.so.13"), first.getMessage());
        assertTrue(!first.attempts().isEmpty(), "lists the places tried");
        assertTrue(first.getMessage().contains("nvidia-cublas"), "says how to install it: " + first.getMessage());
        assertNotSame(first, second, "each call gets its own exception, with its own stack trace");
        assertTrue(second.getCause() instanceof NativeLibraryNotFoundException);

        assertTrue(CudaRuntime.cudaRuntimeGetVersion() >= 13000, "the CUDA runtime does not depend on cuBLAS");
    }
}
