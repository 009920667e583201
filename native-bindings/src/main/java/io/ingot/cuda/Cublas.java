package io.ingot.cuda;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static io.ingot.cuda.CudaRuntime.CUDA_DATA_TYPE;
import static io.ingot.cuda.CudaRuntime.CUDA_STREAM_T;
import static io.ingot.cuda.CudaRuntime.C_INT;
import static io.ingot.cuda.CudaRuntime.C_POINTER;

/**
 * FFM bindings for cuBLAS 13 ({@code libcublas.so.13}, after its dependency {@code libcublasLt.so.13}), in the
 * same shape as {@link CudaRuntime}. The symbols bound are the real exported names ({@code cublasCreate_v2}, ...;
 * {@code cublas_v2.h} maps the unsuffixed C names to them with macros), and the Java methods carry those names.
 *
 * <p>The libraries load on the first call, never when {@link CudaRuntime} or this class loads; when they are
 * missing, every call throws the loader's {@link NativeLibraryNotFoundException} listing the places tried.
 * Non-success statuses become {@link CublasException}. cuBLAS is column-major: for row-major {@code C = A * B}
 * call {@code cublasSgemm_v2(h, N, N, n, m, k, alpha, B, n, A, k, beta, C, n)}. Scalars ({@code alpha},
 * {@code beta}) are host pointers in the default pointer mode. Handles are not thread-safe: one per thread or
 * stream.
 */
public final class Cublas
{
    private Cublas()
    {
    }

    // C types (names are the C spelling; checked by CudaHeaderConformanceTest where cublas_v2.h is installed)

    /** {@code cublasStatus_t}. */
    public static final ValueLayout.OfInt CUBLAS_STATUS_T = ValueLayout.JAVA_INT.withName("cublasStatus_t");
    /** {@code cublasHandle_t}: an opaque pointer. */
    public static final AddressLayout CUBLAS_HANDLE_T = ValueLayout.ADDRESS.withName("cublasHandle_t");
    /** {@code cublasOperation_t}. */
    public static final ValueLayout.OfInt CUBLAS_OPERATION_T = ValueLayout.JAVA_INT.withName("cublasOperation_t");
    /** {@code cublasMath_t}. */
    public static final ValueLayout.OfInt CUBLAS_MATH_T = ValueLayout.JAVA_INT.withName("cublasMath_t");
    /** {@code cublasComputeType_t}. */
    public static final ValueLayout.OfInt CUBLAS_COMPUTE_TYPE_T = ValueLayout.JAVA_INT.withName("cublasComputeType_t");
    /** {@code cublasGemmAlgo_t}. */
    public static final ValueLayout.OfInt CUBLAS_GEMM_ALGO_T = ValueLayout.JAVA_INT.withName("cublasGemmAlgo_t");

    // cublasStatus_t
    /** Success. */
    public static final int CUBLAS_STATUS_SUCCESS = 0;
    /** The library or handle was not initialised. */
    public static final int CUBLAS_STATUS_NOT_INITIALIZED = 1;
    /** An allocation failed. */
    public static final int CUBLAS_STATUS_ALLOC_FAILED = 3;
    /** An argument is invalid. */
    public static final int CUBLAS_STATUS_INVALID_VALUE = 7;
    /** The device lacks a required feature. */
    public static final int CUBLAS_STATUS_ARCH_MISMATCH = 8;
    /** Access to GPU memory failed. */
    public static final int CUBLAS_STATUS_MAPPING_ERROR = 11;
    /** A kernel failed to run. */
    public static final int CUBLAS_STATUS_EXECUTION_FAILED = 13;
    /** An internal operation failed. */
    public static final int CUBLAS_STATUS_INTERNAL_ERROR = 14;
    /** The requested functionality is not supported. */
    public static final int CUBLAS_STATUS_NOT_SUPPORTED = 15;
    /** A licence error. */
    public static final int CUBLAS_STATUS_LICENSE_ERROR = 16;

    // cublasOperation_t
    /** No transpose. */
    public static final int CUBLAS_OP_N = 0;
    /** Transpose. */
    public static final int CUBLAS_OP_T = 1;
    /** Conjugate transpose. */
    public static final int CUBLAS_OP_C = 2;

    // cublasMath_t
    /** Default math. */
    public static final int CUBLAS_DEFAULT_MATH = 0;
    /** Deprecated tensor-op math (same as compute type 32F_FAST_16F). */
    public static final int CUBLAS_TENSOR_OP_MATH = 1;
    /** Pedantic math: no reduced-precision shortcuts. */
    public static final int CUBLAS_PEDANTIC_MATH = 2;
    /** Allow TF32 tensor cores for single precision. */
    public static final int CUBLAS_TF32_TENSOR_OP_MATH = 3;

    // cublasComputeType_t
    /** Half precision compute. */
    public static final int CUBLAS_COMPUTE_16F = 64;
    /** Single precision compute. */
    public static final int CUBLAS_COMPUTE_32F = 68;
    /** Single precision compute, pedantic. */
    public static final int CUBLAS_COMPUTE_32F_PEDANTIC = 69;
    /** Double precision compute. */
    public static final int CUBLAS_COMPUTE_64F = 70;
    /** 32-bit integer compute. */
    public static final int CUBLAS_COMPUTE_32I = 72;
    /** Single precision, inputs may be down-converted to half. */
    public static final int CUBLAS_COMPUTE_32F_FAST_16F = 74;
    /** Single precision, inputs may be down-converted to bfloat16. */
    public static final int CUBLAS_COMPUTE_32F_FAST_16BF = 75;
    /** Single precision, inputs may be down-converted to TF32. */
    public static final int CUBLAS_COMPUTE_32F_FAST_TF32 = 77;

    // cublasGemmAlgo_t
    /** Let cuBLAS choose. */
    public static final int CUBLAS_GEMM_DEFAULT = -1;
    /** Let cuBLAS choose, tensor cores allowed (deprecated alias of the default since CUDA 11). */
    public static final int CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99;

    private static final long NAME_LIMIT = 256;
    @SuppressWarnings("restricted") // a sized target layout lets Java read the C string
    private static final AddressLayout C_STRING =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(NAME_LIMIT, ValueLayout.JAVA_BYTE));

    private static final class Library
    {
        static final NativeBinder BINDER = NativeBinder.load(NativeLibraryLoader.fromEnvironment(),
            NativeLibrary.CUBLAS_LT, NativeLibrary.CUBLAS);
    }

    /**
     * Loads cuBLAS (and cuBLASLt) if not loaded yet.
     *
     * @return the loaded library and where it was found
     * @throws NativeLibraryNotFoundException when either library cannot be found; lists every place tried
     */
    public static LoadedLibrary library()
    {
        return Library.BINDER.library();
    }

    private static MethodHandle bind(final String symbol, final FunctionDescriptor descriptor,
                                     final Linker.Option... options)
    {
        return Library.BINDER.downcall(symbol, descriptor, options);
    }

    private static void check(final int status, final String call)
    {
        if (status != CUBLAS_STATUS_SUCCESS)
        {
            throw new CublasException(call, status, cublasGetStatusName(status));
        }
    }

    private static final class GetStatusName
    {
        static final MethodHandle HANDLE = bind("cublasGetStatusName",
            FunctionDescriptor.of(C_STRING, CUBLAS_STATUS_T), Linker.Option.critical(false));
    }

    /**
     * {@code const char *cublasGetStatusName(cublasStatus_t)}.
     *
     * @param status a {@code cublasStatus_t} value
     * @return its name, e.g. {@code CUBLAS_STATUS_INVALID_VALUE}
     */
    public static String cublasGetStatusName(final int status)
    {
        final MemorySegment text;
        try
        {
            text = (MemorySegment) GetStatusName.HANDLE.invokeExact(status);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        return text.address() == 0 ? "cublasStatus(" + status + ")" : text.getString(0);
    }

    private static final class Create
    {
        static final MethodHandle HANDLE = bind("cublasCreate_v2", FunctionDescriptor.of(CUBLAS_STATUS_T, C_POINTER));
    }

    /**
     * {@code cublasCreate_v2(cublasHandle_t *)}: a handle on the current device.
     *
     * @return the handle; destroy it with {@link #cublasDestroy_v2}
     */
    public static MemorySegment cublasCreate_v2()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment handle = arena.allocate(CUBLAS_HANDLE_T);
            final int status;
            try
            {
                status = (int) Create.HANDLE.invokeExact(handle);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cublasCreate_v2");
            return handle.get(CUBLAS_HANDLE_T, 0);
        }
    }

    private static final class Destroy
    {
        static final MethodHandle HANDLE = bind("cublasDestroy_v2",
            FunctionDescriptor.of(CUBLAS_STATUS_T, CUBLAS_HANDLE_T));
    }

    /**
     * {@code cublasDestroy_v2(cublasHandle_t)}.
     *
     * @param handle the handle
     */
    public static void cublasDestroy_v2(final MemorySegment handle)
    {
        final int status;
        try
        {
            status = (int) Destroy.HANDLE.invokeExact(handle);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cublasDestroy_v2");
    }

    private static final class SetStream
    {
        static final MethodHandle HANDLE = bind("cublasSetStream_v2",
            FunctionDescriptor.of(CUBLAS_STATUS_T, CUBLAS_HANDLE_T, CUDA_STREAM_T));
    }

    /**
     * {@code cublasSetStream_v2(cublasHandle_t, cudaStream_t)}: later calls on {@code handle} enqueue on
     * {@code stream}.
     *
     * @param handle the handle
     * @param stream the stream
     */
    public static void cublasSetStream_v2(final MemorySegment handle, final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) SetStream.HANDLE.invokeExact(handle, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cublasSetStream_v2");
    }

    private static final class SetMathMode
    {
        static final MethodHandle HANDLE = bind("cublasSetMathMode",
            FunctionDescriptor.of(CUBLAS_STATUS_T, CUBLAS_HANDLE_T, CUBLAS_MATH_T));
    }

    /**
     * {@code cublasSetMathMode(cublasHandle_t, cublasMath_t)}.
     *
     * @param handle the handle
     * @param mode   a {@code CUBLAS_*_MATH} constant
     */
    public static void cublasSetMathMode(final MemorySegment handle, final int mode)
    {
        final int status;
        try
        {
            status = (int) SetMathMode.HANDLE.invokeExact(handle, mode);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cublasSetMathMode");
    }

    private static final class Sgemm
    {
        static final MethodHandle HANDLE = bind("cublasSgemm_v2", FunctionDescriptor.of(CUBLAS_STATUS_T,
            CUBLAS_HANDLE_T, CUBLAS_OPERATION_T, CUBLAS_OPERATION_T, C_INT, C_INT, C_INT,
            C_POINTER, C_POINTER, C_INT, C_POINTER, C_INT, C_POINTER, C_POINTER, C_INT));
    }

    /**
     * {@code cublasSgemm_v2}: {@code C = alpha * op(A) * op(B) + beta * C}, single precision, column-major.
     *
     * @param handle the handle
     * @param transa {@link #CUBLAS_OP_N} or {@link #CUBLAS_OP_T}
     * @param transb {@link #CUBLAS_OP_N} or {@link #CUBLAS_OP_T}
     * @param m      rows of op(A) and C
     * @param n      columns of op(B) and C
     * @param k      columns of op(A), rows of op(B)
     * @param alpha  host pointer to one float
     * @param a      device matrix A
     * @param lda    leading dimension of A
     * @param b      device matrix B
     * @param ldb    leading dimension of B
     * @param beta   host pointer to one float
     * @param c      device matrix C
     * @param ldc    leading dimension of C
     */
    public static void cublasSgemm_v2(final MemorySegment handle, final int transa, final int transb,
                                      final int m, final int n, final int k, final MemorySegment alpha,
                                      final MemorySegment a, final int lda, final MemorySegment b, final int ldb,
                                      final MemorySegment beta, final MemorySegment c, final int ldc)
    {
        final int status;
        try
        {
            status = (int) Sgemm.HANDLE.invokeExact(handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta,
                c, ldc);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cublasSgemm_v2");
    }

    private static final class GemmEx
    {
        static final MethodHandle HANDLE = bind("cublasGemmEx", FunctionDescriptor.of(CUBLAS_STATUS_T,
            CUBLAS_HANDLE_T, CUBLAS_OPERATION_T, CUBLAS_OPERATION_T, C_INT, C_INT, C_INT,
            C_POINTER, C_POINTER, CUDA_DATA_TYPE, C_INT, C_POINTER, CUDA_DATA_TYPE, C_INT,
            C_POINTER, C_POINTER, CUDA_DATA_TYPE, C_INT, CUBLAS_COMPUTE_TYPE_T, CUBLAS_GEMM_ALGO_T));
    }

    /**
     * {@code cublasGemmEx}: mixed-precision GEMM, column-major.
     *
     * @param handle      the handle
     * @param transa      operation on A
     * @param transb      operation on B
     * @param m           rows of op(A) and C
     * @param n           columns of op(B) and C
     * @param k           columns of op(A), rows of op(B)
     * @param alpha       host pointer to a scalar of the compute type's scale type
     * @param a           device matrix A
     * @param aType       {@code CUDA_R_*} type of A
     * @param lda         leading dimension of A
     * @param b           device matrix B
     * @param bType       {@code CUDA_R_*} type of B
     * @param ldb         leading dimension of B
     * @param beta        host pointer to a scalar of the scale type
     * @param c           device matrix C
     * @param cType       {@code CUDA_R_*} type of C
     * @param ldc         leading dimension of C
     * @param computeType a {@code CUBLAS_COMPUTE_*} constant
     * @param algo        {@link #CUBLAS_GEMM_DEFAULT} or another {@code cublasGemmAlgo_t}
     */
    public static void cublasGemmEx(final MemorySegment handle, final int transa, final int transb,
                                    final int m, final int n, final int k, final MemorySegment alpha,
                                    final MemorySegment a, final int aType, final int lda,
                                    final MemorySegment b, final int bType, final int ldb,
                                    final MemorySegment beta, final MemorySegment c, final int cType, final int ldc,
                                    final int computeType, final int algo)
    {
        final int status;
        try
        {
            status = (int) GemmEx.HANDLE.invokeExact(handle, transa, transb, m, n, k, alpha, a, aType, lda,
                b, bType, ldb, beta, c, cType, ldc, computeType, algo);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cublasGemmEx");
    }
}
