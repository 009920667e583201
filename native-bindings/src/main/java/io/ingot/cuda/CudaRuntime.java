package io.ingot.cuda;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM bindings for the CUDA 13 runtime ({@code libcudart.so.13}), hand-written in jextract's shape: one holder class
 * per library, one nested holder class per function whose {@code static final MethodHandle} is resolved on first
 * use, called with {@code invokeExact} and exact types; constants named and valued as in the CUDA 13.0 headers.
 *
 * <p><b>Errors.</b> Every function that returns {@code cudaError_t} throws a {@link CudaException} (call, code,
 * CUDA's error name) for any value other than {@code cudaSuccess}, except the two queries
 * ({@link #cudaStreamQuery}, {@link #cudaEventQuery}), which turn {@code cudaErrorNotReady} into {@code false}, and
 * the two last-error readers, which return the code. Out-parameters become return values.
 *
 * <p><b>Loading.</b> The library is found by {@link NativeLibraryLoader#fromEnvironment()} when the first function
 * is called, not when this class loads: the constants and layouts are usable without CUDA. If the library is not
 * found, every function throws {@link NativeLibraryNotFoundException} listing the places tried.
 *
 * <p><b>Pointers and handles</b> are {@link MemorySegment}s: host pointers that Java reads are sized native segments;
 * device pointers and opaque handles ({@code cudaStream_t}, {@code cudaEvent_t}, ...) are zero-length segments that
 * only carry an address. Pass {@link MemorySegment#NULL} for the legacy default stream, or
 * {@link #PER_THREAD_DEFAULT_STREAM} for the per-thread one; the plain (non-{@code _ptsz}) symbols are bound, so
 * stream {@code 0} has legacy semantics.
 *
 * <p><b>Symbols</b> are the plain names libcudart.so.13 exports (CUDA 13 has no {@code _v2} variants).
 * Every constant and struct layout here is checked against the real headers by {@code CudaHeaderConformanceTest}.
 * All methods are thread-safe; CUDA's own rules apply (the current device is per host thread).
 */
public final class CudaRuntime
{
    private CudaRuntime()
    {
    }

    // ------------------------------------------------------------------------------------------------------------
    // C types. Each layout's name is the C spelling; the conformance test checks sizeof and _Alignof of every one.
    // ------------------------------------------------------------------------------------------------------------

    /** C {@code int}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** C {@code unsigned int} (flags). */
    public static final ValueLayout.OfInt C_UNSIGNED_INT = ValueLayout.JAVA_INT.withName("unsigned int");
    /** C {@code float}. */
    public static final ValueLayout.OfFloat C_FLOAT = ValueLayout.JAVA_FLOAT.withName("float");
    /** C {@code size_t}. */
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG.withName("size_t");
    /** C {@code unsigned long long}. */
    public static final ValueLayout.OfLong C_UNSIGNED_LONG_LONG = ValueLayout.JAVA_LONG.withName("unsigned long long");
    /** C {@code void *}. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS.withName("void *");
    /** {@code cudaError_t}: an enum, returned by value. */
    public static final ValueLayout.OfInt CUDA_ERROR_T = ValueLayout.JAVA_INT.withName("cudaError_t");
    /** {@code cudaStream_t}: an opaque pointer. */
    public static final AddressLayout CUDA_STREAM_T = ValueLayout.ADDRESS.withName("cudaStream_t");
    /** {@code cudaEvent_t}: an opaque pointer. */
    public static final AddressLayout CUDA_EVENT_T = ValueLayout.ADDRESS.withName("cudaEvent_t");
    /** {@code cudaGraph_t}: an opaque pointer. */
    public static final AddressLayout CUDA_GRAPH_T = ValueLayout.ADDRESS.withName("cudaGraph_t");
    /** {@code cudaGraphExec_t}: an opaque pointer. */
    public static final AddressLayout CUDA_GRAPH_EXEC_T = ValueLayout.ADDRESS.withName("cudaGraphExec_t");
    /** {@code cudaHostFn_t}: {@code void (*)(void *userData)}. */
    public static final AddressLayout CUDA_HOST_FN_T = ValueLayout.ADDRESS.withName("cudaHostFn_t");
    /** {@code enum cudaMemcpyKind}. */
    public static final ValueLayout.OfInt ENUM_CUDA_MEMCPY_KIND = ValueLayout.JAVA_INT.withName("enum cudaMemcpyKind");
    /** {@code enum cudaDeviceAttr}. */
    public static final ValueLayout.OfInt ENUM_CUDA_DEVICE_ATTR = ValueLayout.JAVA_INT.withName("enum cudaDeviceAttr");
    /** {@code enum cudaStreamCaptureMode}. */
    public static final ValueLayout.OfInt ENUM_CUDA_STREAM_CAPTURE_MODE =
        ValueLayout.JAVA_INT.withName("enum cudaStreamCaptureMode");
    /** {@code cudaDataType} ({@code library_types.h}), used by cuBLAS and TensorRT. */
    public static final ValueLayout.OfInt CUDA_DATA_TYPE = ValueLayout.JAVA_INT.withName("cudaDataType");

    // ------------------------------------------------------------------------------------------------------------
    // Struct layouts. Member names are the C member names; the conformance test checks sizeof, _Alignof, and the
    // offset and size of every named member. Padding stands for members the bindings do not read.
    // ------------------------------------------------------------------------------------------------------------

    /** {@code CUDA_IPC_HANDLE_SIZE}: bytes in an IPC memory handle. */
    public static final int CUDA_IPC_HANDLE_SIZE = 64;

    /** {@code struct CUuuid_st} ({@code cudaUUID_t}): 16 bytes. */
    public static final StructLayout CUDA_UUID = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(16, ValueLayout.JAVA_BYTE).withName("bytes")).withName("CUuuid_st");

    /** {@code struct cudaIpcMemHandle_st} ({@code cudaIpcMemHandle_t}): 64 opaque bytes, passed by value. */
    public static final StructLayout CUDA_IPC_MEM_HANDLE = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(CUDA_IPC_HANDLE_SIZE, ValueLayout.JAVA_BYTE).withName("reserved"))
        .withName("cudaIpcMemHandle_st");

    /**
     * {@code struct cudaDeviceProp} (CUDA 13.0: 1008 bytes), with the members the bindings read. Prefer
     * {@link #cudaDeviceGetAttribute} for numbers; this struct is read for the device name and total memory.
     */
    public static final StructLayout CUDA_DEVICE_PROP = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(256, ValueLayout.JAVA_BYTE).withName("name"),
        CUDA_UUID.withName("uuid"),
        MemoryLayout.sequenceLayout(8, ValueLayout.JAVA_BYTE).withName("luid"),
        C_UNSIGNED_INT.withName("luidDeviceNodeMask"),
        MemoryLayout.paddingLayout(4),
        SIZE_T.withName("totalGlobalMem"),
        MemoryLayout.paddingLayout(64),
        C_INT.withName("major"),
        C_INT.withName("minor"),
        MemoryLayout.paddingLayout(16),
        C_INT.withName("multiProcessorCount"),
        MemoryLayout.paddingLayout(180),
        C_INT.withName("pciBusID"),
        C_INT.withName("pciDeviceID"),
        C_INT.withName("pciDomainID"),
        MemoryLayout.paddingLayout(428)).withName("cudaDeviceProp");

    // ------------------------------------------------------------------------------------------------------------
    // Constants: names and values from the CUDA 13.0 headers. Every public static final int/long field of this
    // class is a header constant of the same name; CudaHeaderConformanceTest compiles them all against the headers.
    // ------------------------------------------------------------------------------------------------------------

    /** {@code CUDART_VERSION} of the headers these bindings were written against (13.0). */
    public static final int CUDART_VERSION = 13000;

    // enum cudaError (driver_types.h): the codes this project handles by name
    /** No error. */
    public static final int cudaSuccess = 0;
    /** An argument is out of range. */
    public static final int cudaErrorInvalidValue = 1;
    /** Out of memory. */
    public static final int cudaErrorMemoryAllocation = 2;
    /** The CUDA runtime could not initialise. */
    public static final int cudaErrorInitializationError = 3;
    /** The driver found is the toolkit's stub library. No usable GPU. */
    public static final int cudaErrorStubLibrary = 34;
    /** No driver, or a driver older than the runtime. No usable GPU. */
    public static final int cudaErrorInsufficientDriver = 35;
    /** All devices are busy or unavailable (exclusive mode). */
    public static final int cudaErrorDevicesUnavailable = 46;
    /** No CUDA-capable device. No usable GPU. */
    public static final int cudaErrorNoDevice = 100;
    /** The device ordinal does not name a device. */
    public static final int cudaErrorInvalidDevice = 101;
    /** A handle (stream, event, graph) is not valid. */
    public static final int cudaErrorInvalidResourceHandle = 400;
    /** Work is still pending: not an error for the query functions. */
    public static final int cudaErrorNotReady = 600;
    /** A kernel accessed an illegal address; the context is unusable. */
    public static final int cudaErrorIllegalAddress = 700;
    /** The memory is already registered with {@code cudaHostRegister}. */
    public static final int cudaErrorHostMemoryAlreadyRegistered = 712;
    /** The memory is not registered with {@code cudaHostRegister}. */
    public static final int cudaErrorHostMemoryNotRegistered = 713;
    /** A kernel failed; the context is unusable. */
    public static final int cudaErrorLaunchFailure = 719;
    /** The operation is not supported on this system or device. */
    public static final int cudaErrorNotSupported = 801;
    /** Kernel module and user-mode driver versions differ. No usable GPU. */
    public static final int cudaErrorSystemDriverMismatch = 803;
    /** Forward-compatibility is not supported on this device. */
    public static final int cudaErrorCompatNotSupportedOnDevice = 804;
    /** The operation is not permitted while a stream is capturing. */
    public static final int cudaErrorStreamCaptureUnsupported = 900;
    /** The stream capture was invalidated by an earlier error. */
    public static final int cudaErrorStreamCaptureInvalidated = 901;
    /** An unknown internal error. */
    public static final int cudaErrorUnknown = 999;

    // enum cudaMemcpyKind
    /** Host to host. */
    public static final int cudaMemcpyHostToHost = 0;
    /** Host to device. */
    public static final int cudaMemcpyHostToDevice = 1;
    /** Device to host. */
    public static final int cudaMemcpyDeviceToHost = 2;
    /** Device to device. */
    public static final int cudaMemcpyDeviceToDevice = 3;
    /** Direction inferred from the pointers (unified virtual addressing). */
    public static final int cudaMemcpyDefault = 4;

    // cudaHostAlloc flags
    /** Default page-locked allocation. */
    public static final int cudaHostAllocDefault = 0;
    /** Pinned for every CUDA context, not only the current one. */
    public static final int cudaHostAllocPortable = 1;
    /** Mapped into the device address space. */
    public static final int cudaHostAllocMapped = 2;
    /** Write-combined: fast host writes and device reads, very slow host reads. */
    public static final int cudaHostAllocWriteCombined = 4;

    // cudaHostRegister flags
    /** Default registration. */
    public static final int cudaHostRegisterDefault = 0;
    /** Pinned for every CUDA context. */
    public static final int cudaHostRegisterPortable = 1;
    /** Mapped into the device address space. */
    public static final int cudaHostRegisterMapped = 2;
    /** The memory is I/O memory (e.g. a PCI BAR). */
    public static final int cudaHostRegisterIoMemory = 4;
    /** The device only reads the memory. */
    public static final int cudaHostRegisterReadOnly = 8;

    // stream flags and special streams
    /** Stream that synchronises with the legacy default stream. */
    public static final int cudaStreamDefault = 0;
    /** Stream that does not synchronise with the legacy default stream. */
    public static final int cudaStreamNonBlocking = 1;
    /** {@code cudaStreamLegacy}: the legacy default stream, as a handle value. */
    public static final long cudaStreamLegacy = 0x1L;
    /** {@code cudaStreamPerThread}: the per-thread default stream, as a handle value. */
    public static final long cudaStreamPerThread = 0x2L;

    /** The per-thread default stream ({@link #cudaStreamPerThread}) as a handle. */
    public static final MemorySegment PER_THREAD_DEFAULT_STREAM = MemorySegment.ofAddress(cudaStreamPerThread);

    // event flags
    /** Default event (records timing). */
    public static final int cudaEventDefault = 0;
    /** Synchronising on the event blocks the thread instead of spinning. */
    public static final int cudaEventBlockingSync = 1;
    /** The event records no timing (cheaper). */
    public static final int cudaEventDisableTiming = 2;
    /** The event may be shared between processes (needs {@link #cudaEventDisableTiming}). */
    public static final int cudaEventInterprocess = 4;

    // enum cudaStreamCaptureMode
    /** Capture forbids unsafe calls from any thread. */
    public static final int cudaStreamCaptureModeGlobal = 0;
    /** Capture forbids unsafe calls from the capturing thread only. */
    public static final int cudaStreamCaptureModeThreadLocal = 1;
    /** Capture places no restriction on other calls. */
    public static final int cudaStreamCaptureModeRelaxed = 2;

    // cudaGraphInstantiate flags (unsigned long long)
    /** Free graph allocations that were not freed before the next launch. */
    public static final long cudaGraphInstantiateFlagAutoFreeOnLaunch = 1L;
    /** Upload the graph to the device during instantiation. */
    public static final long cudaGraphInstantiateFlagUpload = 2L;
    /** The graph can be launched from the device. */
    public static final long cudaGraphInstantiateFlagDeviceLaunch = 4L;
    /** Use node priorities when launching. */
    public static final long cudaGraphInstantiateFlagUseNodePriority = 8L;

    // cudaIpcOpenMemHandle flags
    /** Enables peer access lazily: the only valid flag of {@code cudaIpcOpenMemHandle}. */
    public static final int cudaIpcMemLazyEnablePeerAccess = 1;

    // enum cudaDeviceAttr: the attributes this project reads
    /** Maximum threads per block. */
    public static final int cudaDevAttrMaxThreadsPerBlock = 1;
    /** Warp size in threads. */
    public static final int cudaDevAttrWarpSize = 10;
    /** Number of streaming multiprocessors. */
    public static final int cudaDevAttrMultiProcessorCount = 16;
    /** 1 if the device is integrated with host memory. */
    public static final int cudaDevAttrIntegrated = 18;
    /** 1 if the device can map host memory. */
    public static final int cudaDevAttrCanMapHostMemory = 19;
    /** 1 if kernels may run concurrently. */
    public static final int cudaDevAttrConcurrentKernels = 31;
    /** PCI bus id. */
    public static final int cudaDevAttrPciBusId = 33;
    /** PCI device id. */
    public static final int cudaDevAttrPciDeviceId = 34;
    /** Global memory bus width in bits. */
    public static final int cudaDevAttrGlobalMemoryBusWidth = 37;
    /** L2 cache size in bytes. */
    public static final int cudaDevAttrL2CacheSize = 38;
    /** Number of asynchronous copy engines. */
    public static final int cudaDevAttrAsyncEngineCount = 40;
    /** 1 if the device shares a unified address space with the host. */
    public static final int cudaDevAttrUnifiedAddressing = 41;
    /** PCI domain id. */
    public static final int cudaDevAttrPciDomainId = 50;
    /** Compute capability, major part. */
    public static final int cudaDevAttrComputeCapabilityMajor = 75;
    /** Compute capability, minor part. */
    public static final int cudaDevAttrComputeCapabilityMinor = 76;
    /** 1 if the device supports stream priorities. */
    public static final int cudaDevAttrStreamPrioritiesSupported = 78;
    /** 1 if managed memory can be accessed concurrently by host and device. */
    public static final int cudaDevAttrConcurrentManagedAccess = 89;
    /** 1 if the device supports {@code cudaHostRegister}. */
    public static final int cudaDevAttrHostRegisterSupported = 99;
    /** 1 if the device supports {@code cudaMallocAsync} and memory pools. */
    public static final int cudaDevAttrMemoryPoolsSupported = 115;
    /** 1 if the device supports IPC events. */
    public static final int cudaDevAttrIpcEventSupport = 125;

    // cudaDataType (library_types.h)
    /** 32-bit float. */
    public static final int CUDA_R_32F = 0;
    /** 64-bit float. */
    public static final int CUDA_R_64F = 1;
    /** 16-bit float (half). */
    public static final int CUDA_R_16F = 2;
    /** Signed 8-bit integer. */
    public static final int CUDA_R_8I = 3;
    /** Signed 32-bit integer. */
    public static final int CUDA_R_32I = 10;
    /** bfloat16. */
    public static final int CUDA_R_16BF = 14;
    /** 8-bit float, e4m3. */
    public static final int CUDA_R_8F_E4M3 = 28;

    // ------------------------------------------------------------------------------------------------------------
    // Library
    // ------------------------------------------------------------------------------------------------------------

    /** Upper bound on the length of CUDA's static error strings, to give the returned pointers a readable size. */
    private static final long ERROR_TEXT_LIMIT = 4096;
    @SuppressWarnings("restricted") // a sized target layout lets Java read the C string
    private static final AddressLayout C_STRING =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(ERROR_TEXT_LIMIT, ValueLayout.JAVA_BYTE));
    /** Linker option for calls that are short, never block and never call back into Java. */
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private static final class Library
    {
        static final NativeBinder BINDER = NativeBinder.load(NativeLibraryLoader.fromEnvironment(),
            NativeLibrary.CUDART);
    }

    /**
     * Loads the runtime if it is not loaded yet.
     *
     * @return the loaded library and where it was found
     * @throws NativeLibraryNotFoundException when it cannot be found; the message lists every place tried
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

    /**
     * Throws {@link CudaException} for a non-zero {@code cudaError_t}.
     *
     * @param status what the call returned
     * @param call   the CUDA function, for the message
     * @throws CudaException when {@code status != cudaSuccess}
     */
    public static void check(final int status, final String call)
    {
        if (status != cudaSuccess)
        {
            throw failure(status, call);
        }
    }

    /**
     * Builds the exception for a failed call, with CUDA's name and description of the code.
     *
     * @param status the {@code cudaError_t} value (non-zero)
     * @param call   the CUDA function
     * @return the exception, to be thrown by the caller
     */
    public static CudaException failure(final int status, final String call)
    {
        return new CudaException(call, status, cudaGetErrorName(status), cudaGetErrorString(status));
    }

    private static void requireNonNegative(final long value, final String what, final String call)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException(call + ": " + what + " must be >= 0, was " + value);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Errors and versions
    // ------------------------------------------------------------------------------------------------------------

    private static final class GetErrorName
    {
        static final MethodHandle HANDLE = bind("cudaGetErrorName", FunctionDescriptor.of(C_STRING, CUDA_ERROR_T),
            CRITICAL);
    }

    /**
     * {@code const char *cudaGetErrorName(cudaError_t)}.
     *
     * @param error a {@code cudaError_t} value
     * @return its enum name, e.g. {@code cudaErrorInsufficientDriver}; CUDA answers "unrecognized error code" for
     *         values it does not know
     */
    public static String cudaGetErrorName(final int error)
    {
        final MemorySegment text;
        try
        {
            text = (MemorySegment) GetErrorName.HANDLE.invokeExact(error);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        return text.address() == 0 ? "cudaError(" + error + ")" : text.getString(0);
    }

    private static final class GetErrorString
    {
        static final MethodHandle HANDLE = bind("cudaGetErrorString",
            FunctionDescriptor.of(C_STRING, CUDA_ERROR_T), CRITICAL);
    }

    /**
     * {@code const char *cudaGetErrorString(cudaError_t)}.
     *
     * @param error a {@code cudaError_t} value
     * @return CUDA's description of it
     */
    public static String cudaGetErrorString(final int error)
    {
        final MemorySegment text;
        try
        {
            text = (MemorySegment) GetErrorString.HANDLE.invokeExact(error);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        return text.address() == 0 ? "no description" : text.getString(0);
    }

    private static final class GetLastError
    {
        static final MethodHandle HANDLE = bind("cudaGetLastError", FunctionDescriptor.of(CUDA_ERROR_T));
    }

    /**
     * {@code cudaGetLastError()}: returns the last error of this host thread and resets it (sticky errors, such as a
     * failed initialisation or a kernel fault, stay).
     *
     * @return the {@code cudaError_t} value (not thrown)
     */
    public static int cudaGetLastError()
    {
        try
        {
            return (int) GetLastError.HANDLE.invokeExact();
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
    }

    private static final class PeekAtLastError
    {
        static final MethodHandle HANDLE = bind("cudaPeekAtLastError", FunctionDescriptor.of(CUDA_ERROR_T));
    }

    /**
     * {@code cudaPeekAtLastError()}: returns the last error of this host thread without resetting it.
     *
     * @return the {@code cudaError_t} value (not thrown)
     */
    public static int cudaPeekAtLastError()
    {
        try
        {
            return (int) PeekAtLastError.HANDLE.invokeExact();
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
    }

    private static final class RuntimeGetVersion
    {
        static final MethodHandle HANDLE = bind("cudaRuntimeGetVersion",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaRuntimeGetVersion(int *)}: works without a driver or a GPU.
     *
     * @return the runtime's version, {@code 1000 * major + 10 * minor} (13000 for 13.0)
     */
    public static int cudaRuntimeGetVersion()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment version = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) RuntimeGetVersion.HANDLE.invokeExact(version);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaRuntimeGetVersion");
            return version.get(C_INT, 0);
        }
    }

    private static final class DriverGetVersion
    {
        static final MethodHandle HANDLE = bind("cudaDriverGetVersion", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaDriverGetVersion(int *)}.
     *
     * @return the newest CUDA version the installed driver supports, or 0 when no driver is installed
     */
    public static int cudaDriverGetVersion()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment version = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) DriverGetVersion.HANDLE.invokeExact(version);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaDriverGetVersion");
            return version.get(C_INT, 0);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Devices
    // ------------------------------------------------------------------------------------------------------------

    private static final class GetDeviceCount
    {
        static final MethodHandle HANDLE = bind("cudaGetDeviceCount", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaGetDeviceCount(int *)}.
     *
     * @return the number of CUDA devices
     * @throws CudaException e.g. {@code cudaErrorInsufficientDriver} (35) without a driver
     *                       ({@link CudaException#isNoUsableGpu()})
     */
    public static int cudaGetDeviceCount()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment count = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) GetDeviceCount.HANDLE.invokeExact(count);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaGetDeviceCount");
            return count.get(C_INT, 0);
        }
    }

    private static final class SetDevice
    {
        static final MethodHandle HANDLE = bind("cudaSetDevice", FunctionDescriptor.of(CUDA_ERROR_T, C_INT));
    }

    /**
     * {@code cudaSetDevice(int)}: makes {@code device} current for the calling host thread.
     *
     * @param device a device ordinal
     */
    public static void cudaSetDevice(final int device)
    {
        final int status;
        try
        {
            status = (int) SetDevice.HANDLE.invokeExact(device);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaSetDevice");
    }

    private static final class GetDevice
    {
        static final MethodHandle HANDLE = bind("cudaGetDevice", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaGetDevice(int *)}.
     *
     * @return the device current for the calling host thread
     */
    public static int cudaGetDevice()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment device = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) GetDevice.HANDLE.invokeExact(device);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaGetDevice");
            return device.get(C_INT, 0);
        }
    }

    private static final class DeviceGetAttribute
    {
        static final MethodHandle HANDLE = bind("cudaDeviceGetAttribute",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, ENUM_CUDA_DEVICE_ATTR, C_INT));
    }

    /**
     * {@code cudaDeviceGetAttribute(int *, enum cudaDeviceAttr, int)}.
     *
     * @param attribute a {@code cudaDevAttr*} constant
     * @param device    a device ordinal
     * @return the attribute's value
     */
    public static int cudaDeviceGetAttribute(final int attribute, final int device)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment value = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) DeviceGetAttribute.HANDLE.invokeExact(value, attribute, device);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaDeviceGetAttribute");
            return value.get(C_INT, 0);
        }
    }

    private static final class GetDeviceProperties
    {
        static final MethodHandle HANDLE = bind("cudaGetDeviceProperties",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_INT));
    }

    /**
     * {@code cudaGetDeviceProperties(struct cudaDeviceProp *, int)}.
     *
     * @param properties native memory of at least {@link #CUDA_DEVICE_PROP}'s size that CUDA fills in
     * @param device     a device ordinal
     * @throws IllegalArgumentException when {@code properties} is too small
     */
    public static void cudaGetDeviceProperties(final MemorySegment properties, final int device)
    {
        if (properties.byteSize() < CUDA_DEVICE_PROP.byteSize())
        {
            throw new IllegalArgumentException("cudaGetDeviceProperties: the properties segment must hold at least "
                + CUDA_DEVICE_PROP.byteSize() + " bytes (struct cudaDeviceProp), was " + properties.byteSize());
        }
        final int status;
        try
        {
            status = (int) GetDeviceProperties.HANDLE.invokeExact(properties, device);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaGetDeviceProperties");
    }

    private static final class DeviceSynchronize
    {
        static final MethodHandle HANDLE = bind("cudaDeviceSynchronize", FunctionDescriptor.of(CUDA_ERROR_T));
    }

    /** {@code cudaDeviceSynchronize()}: waits until all work on the current device is done. */
    public static void cudaDeviceSynchronize()
    {
        final int status;
        try
        {
            status = (int) DeviceSynchronize.HANDLE.invokeExact();
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaDeviceSynchronize");
    }

    /**
     * Free and total memory of the current device.
     *
     * @param freeBytes  bytes free
     * @param totalBytes bytes in total
     */
    public record MemoryInfo(long freeBytes, long totalBytes)
    {
    }

    private static final class MemGetInfo
    {
        static final MethodHandle HANDLE = bind("cudaMemGetInfo",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_POINTER));
    }

    /**
     * {@code cudaMemGetInfo(size_t *free, size_t *total)} for the current device.
     *
     * @return free and total bytes
     */
    public static MemoryInfo cudaMemGetInfo()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment free = arena.allocate(SIZE_T);
            final MemorySegment total = arena.allocate(SIZE_T);
            final int status;
            try
            {
                status = (int) MemGetInfo.HANDLE.invokeExact(free, total);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaMemGetInfo");
            return new MemoryInfo(free.get(SIZE_T, 0), total.get(SIZE_T, 0));
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Host memory
    // ------------------------------------------------------------------------------------------------------------

    private static final class HostAlloc
    {
        static final MethodHandle HANDLE = bind("cudaHostAlloc",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, SIZE_T, C_UNSIGNED_INT));
    }

    /**
     * {@code cudaHostAlloc(void **, size_t, unsigned int)}: page-locked host memory; its contents are undefined.
     *
     * @param size  bytes, {@code >= 0}
     * @param flags {@code cudaHostAlloc*} flags
     * @return a zero-length segment at the allocation's address; free it with {@link #cudaFreeHost}
     */
    public static MemorySegment cudaHostAlloc(final long size, final int flags)
    {
        requireNonNegative(size, "size", "cudaHostAlloc");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pointer = arena.allocate(C_POINTER);
            final int status;
            try
            {
                status = (int) HostAlloc.HANDLE.invokeExact(pointer, size, flags);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaHostAlloc");
            return pointer.get(C_POINTER, 0);
        }
    }

    private static final class FreeHost
    {
        static final MethodHandle HANDLE = bind("cudaFreeHost", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaFreeHost(void *)}: frees memory from {@link #cudaHostAlloc}.
     *
     * @param pointer the allocation's address
     */
    public static void cudaFreeHost(final MemorySegment pointer)
    {
        final int status;
        try
        {
            status = (int) FreeHost.HANDLE.invokeExact(pointer);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaFreeHost");
    }

    private static final class HostRegister
    {
        static final MethodHandle HANDLE = bind("cudaHostRegister",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, SIZE_T, C_UNSIGNED_INT));
    }

    /**
     * {@code cudaHostRegister(void *, size_t, unsigned int)}: page-locks existing host memory (e.g. a shared-memory
     * mapping) so the device can copy it without staging.
     *
     * @param memory the memory to register (native; its whole size is registered)
     * @param flags  {@code cudaHostRegister*} flags
     */
    public static void cudaHostRegister(final MemorySegment memory, final int flags)
    {
        final int status;
        try
        {
            status = (int) HostRegister.HANDLE.invokeExact(memory, memory.byteSize(), flags);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaHostRegister");
    }

    private static final class HostUnregister
    {
        static final MethodHandle HANDLE = bind("cudaHostUnregister", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaHostUnregister(void *)}.
     *
     * @param memory memory registered with {@link #cudaHostRegister}
     */
    public static void cudaHostUnregister(final MemorySegment memory)
    {
        final int status;
        try
        {
            status = (int) HostUnregister.HANDLE.invokeExact(memory);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaHostUnregister");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Device memory
    // ------------------------------------------------------------------------------------------------------------

    private static final class Malloc
    {
        static final MethodHandle HANDLE = bind("cudaMalloc", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, SIZE_T));
    }

    /**
     * {@code cudaMalloc(void **, size_t)} on the current device.
     *
     * @param size bytes, {@code >= 0}
     * @return the device pointer as a zero-length segment (not readable from the host)
     */
    public static MemorySegment cudaMalloc(final long size)
    {
        requireNonNegative(size, "size", "cudaMalloc");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pointer = arena.allocate(C_POINTER);
            final int status;
            try
            {
                status = (int) Malloc.HANDLE.invokeExact(pointer, size);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaMalloc");
            return pointer.get(C_POINTER, 0);
        }
    }

    private static final class Free
    {
        static final MethodHandle HANDLE = bind("cudaFree", FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaFree(void *)}: frees device memory; synchronises the device.
     *
     * @param devicePointer from {@link #cudaMalloc} or {@link #cudaMallocAsync}
     */
    public static void cudaFree(final MemorySegment devicePointer)
    {
        final int status;
        try
        {
            status = (int) Free.HANDLE.invokeExact(devicePointer);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaFree");
    }

    private static final class MallocAsync
    {
        static final MethodHandle HANDLE = bind("cudaMallocAsync",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, SIZE_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaMallocAsync(void **, size_t, cudaStream_t)}: stream-ordered allocation from the device's default
     * memory pool; usable by work enqueued on {@code stream} after this call.
     *
     * @param size   bytes, {@code >= 0}
     * @param stream the stream that orders the allocation
     * @return the device pointer as a zero-length segment
     */
    public static MemorySegment cudaMallocAsync(final long size, final MemorySegment stream)
    {
        requireNonNegative(size, "size", "cudaMallocAsync");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pointer = arena.allocate(C_POINTER);
            final int status;
            try
            {
                status = (int) MallocAsync.HANDLE.invokeExact(pointer, size, stream);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaMallocAsync");
            return pointer.get(C_POINTER, 0);
        }
    }

    private static final class FreeAsync
    {
        static final MethodHandle HANDLE = bind("cudaFreeAsync",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, CUDA_STREAM_T));
    }

    /**
     * {@code cudaFreeAsync(void *, cudaStream_t)}: frees after the work already enqueued on {@code stream}.
     *
     * @param devicePointer from {@link #cudaMallocAsync}
     * @param stream        the stream that orders the free
     */
    public static void cudaFreeAsync(final MemorySegment devicePointer, final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) FreeAsync.HANDLE.invokeExact(devicePointer, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaFreeAsync");
    }

    private static final class Memcpy
    {
        static final MethodHandle HANDLE = bind("cudaMemcpy",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_POINTER, SIZE_T, ENUM_CUDA_MEMCPY_KIND));
    }

    /**
     * {@code cudaMemcpy(void *dst, const void *src, size_t, enum cudaMemcpyKind)}: synchronous copy.
     *
     * @param destination where to copy to
     * @param source      where to copy from
     * @param count       bytes, {@code >= 0}
     * @param kind        a {@code cudaMemcpy*} direction
     */
    public static void cudaMemcpy(final MemorySegment destination, final MemorySegment source, final long count,
                                  final int kind)
    {
        requireNonNegative(count, "count", "cudaMemcpy");
        final int status;
        try
        {
            status = (int) Memcpy.HANDLE.invokeExact(destination, source, count, kind);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaMemcpy");
    }

    private static final class MemcpyAsync
    {
        static final MethodHandle HANDLE = bind("cudaMemcpyAsync",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_POINTER, SIZE_T, ENUM_CUDA_MEMCPY_KIND, CUDA_STREAM_T));
    }

    /**
     * {@code cudaMemcpyAsync(void *dst, const void *src, size_t, enum cudaMemcpyKind, cudaStream_t)}: enqueues a
     * copy. Asynchronous with respect to the host only when the host side is page-locked; both sides must stay
     * valid until the copy has run. Allocates nothing.
     *
     * @param destination where to copy to
     * @param source      where to copy from
     * @param count       bytes, {@code >= 0}
     * @param kind        a {@code cudaMemcpy*} direction
     * @param stream      the stream to enqueue on
     */
    public static void cudaMemcpyAsync(final MemorySegment destination, final MemorySegment source, final long count,
                                       final int kind, final MemorySegment stream)
    {
        requireNonNegative(count, "count", "cudaMemcpyAsync");
        final int status;
        try
        {
            status = (int) MemcpyAsync.HANDLE.invokeExact(destination, source, count, kind, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaMemcpyAsync");
    }

    private static final class MemsetAsync
    {
        static final MethodHandle HANDLE = bind("cudaMemsetAsync",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_INT, SIZE_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaMemsetAsync(void *, int, size_t, cudaStream_t)}: enqueues filling device memory with a byte.
     *
     * @param devicePointer the memory
     * @param value         the byte value (low 8 bits are used)
     * @param count         bytes, {@code >= 0}
     * @param stream        the stream to enqueue on
     */
    public static void cudaMemsetAsync(final MemorySegment devicePointer, final int value, final long count,
                                       final MemorySegment stream)
    {
        requireNonNegative(count, "count", "cudaMemsetAsync");
        final int status;
        try
        {
            status = (int) MemsetAsync.HANDLE.invokeExact(devicePointer, value, count, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaMemsetAsync");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Streams
    // ------------------------------------------------------------------------------------------------------------

    private static final class StreamCreateWithFlags
    {
        static final MethodHandle HANDLE = bind("cudaStreamCreateWithFlags",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_UNSIGNED_INT));
    }

    /**
     * {@code cudaStreamCreateWithFlags(cudaStream_t *, unsigned int)} on the current device.
     *
     * @param flags {@link #cudaStreamDefault} or {@link #cudaStreamNonBlocking}
     * @return the stream handle
     */
    public static MemorySegment cudaStreamCreateWithFlags(final int flags)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment stream = arena.allocate(CUDA_STREAM_T);
            final int status;
            try
            {
                status = (int) StreamCreateWithFlags.HANDLE.invokeExact(stream, flags);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaStreamCreateWithFlags");
            return stream.get(CUDA_STREAM_T, 0);
        }
    }

    private static final class StreamCreateWithPriority
    {
        static final MethodHandle HANDLE = bind("cudaStreamCreateWithPriority",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_UNSIGNED_INT, C_INT));
    }

    /**
     * {@code cudaStreamCreateWithPriority(cudaStream_t *, unsigned int, int)}. Lower numbers are higher priorities;
     * values outside {@link #cudaDeviceGetStreamPriorityRange()} are clamped by CUDA.
     *
     * @param flags    {@link #cudaStreamDefault} or {@link #cudaStreamNonBlocking}
     * @param priority the priority
     * @return the stream handle
     */
    public static MemorySegment cudaStreamCreateWithPriority(final int flags, final int priority)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment stream = arena.allocate(CUDA_STREAM_T);
            final int status;
            try
            {
                status = (int) StreamCreateWithPriority.HANDLE.invokeExact(stream, flags, priority);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaStreamCreateWithPriority");
            return stream.get(CUDA_STREAM_T, 0);
        }
    }

    /**
     * Stream priorities of the current device. Lower numbers are higher priorities, so
     * {@code greatest <= least}.
     *
     * @param least    the lowest priority (numerically largest, usually 0)
     * @param greatest the highest priority (numerically smallest, e.g. -5)
     */
    public record StreamPriorityRange(int least, int greatest)
    {
    }

    private static final class DeviceGetStreamPriorityRange
    {
        static final MethodHandle HANDLE = bind("cudaDeviceGetStreamPriorityRange",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_POINTER));
    }

    /**
     * {@code cudaDeviceGetStreamPriorityRange(int *least, int *greatest)} for the current device.
     *
     * @return the range
     */
    public static StreamPriorityRange cudaDeviceGetStreamPriorityRange()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment least = arena.allocate(C_INT);
            final MemorySegment greatest = arena.allocate(C_INT);
            final int status;
            try
            {
                status = (int) DeviceGetStreamPriorityRange.HANDLE.invokeExact(least, greatest);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaDeviceGetStreamPriorityRange");
            return new StreamPriorityRange(least.get(C_INT, 0), greatest.get(C_INT, 0));
        }
    }

    private static final class StreamSynchronize
    {
        static final MethodHandle HANDLE = bind("cudaStreamSynchronize",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaStreamSynchronize(cudaStream_t)}: blocks until all work enqueued on {@code stream} is done.
     *
     * @param stream the stream
     */
    public static void cudaStreamSynchronize(final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) StreamSynchronize.HANDLE.invokeExact(stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaStreamSynchronize");
    }

    private static final class StreamQuery
    {
        static final MethodHandle HANDLE = bind("cudaStreamQuery", FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaStreamQuery(cudaStream_t)}.
     *
     * @param stream the stream
     * @return true when all work enqueued on it is done, false while some is pending ({@code cudaErrorNotReady})
     */
    public static boolean cudaStreamQuery(final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) StreamQuery.HANDLE.invokeExact(stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        if (status == cudaErrorNotReady)
        {
            return false;
        }
        check(status, "cudaStreamQuery");
        return true;
    }

    private static final class StreamDestroy
    {
        static final MethodHandle HANDLE = bind("cudaStreamDestroy",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaStreamDestroy(cudaStream_t)}: returns at once; work already enqueued still runs, and the stream's
     * resources are released when it is done.
     *
     * @param stream the stream
     */
    public static void cudaStreamDestroy(final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) StreamDestroy.HANDLE.invokeExact(stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaStreamDestroy");
    }

    private static final class LaunchHostFunc
    {
        static final MethodHandle HANDLE = bind("cudaLaunchHostFunc",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T, CUDA_HOST_FN_T, C_POINTER));
    }

    /**
     * {@code cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void *userData)}: enqueues a host function that runs,
     * on a CUDA-owned thread, after all earlier work on {@code stream}. It must not call CUDA. Prefer
     * {@link HostCallbacks#launch(MemorySegment)}, which completes a future from one shared upcall stub.
     *
     * @param stream   the stream
     * @param function the function pointer (an upcall stub that outlives every call)
     * @param userData the argument passed to {@code function}
     */
    public static void cudaLaunchHostFunc(final MemorySegment stream, final MemorySegment function,
                                          final MemorySegment userData)
    {
        final int status;
        try
        {
            status = (int) LaunchHostFunc.HANDLE.invokeExact(stream, function, userData);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaLaunchHostFunc");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Events
    // ------------------------------------------------------------------------------------------------------------

    private static final class EventCreateWithFlags
    {
        static final MethodHandle HANDLE = bind("cudaEventCreateWithFlags",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_UNSIGNED_INT));
    }

    /**
     * {@code cudaEventCreateWithFlags(cudaEvent_t *, unsigned int)} on the current device.
     *
     * @param flags {@code cudaEvent*} flags
     * @return the event handle
     */
    public static MemorySegment cudaEventCreateWithFlags(final int flags)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment event = arena.allocate(CUDA_EVENT_T);
            final int status;
            try
            {
                status = (int) EventCreateWithFlags.HANDLE.invokeExact(event, flags);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaEventCreateWithFlags");
            return event.get(CUDA_EVENT_T, 0);
        }
    }

    private static final class EventRecord
    {
        static final MethodHandle HANDLE = bind("cudaEventRecord",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_EVENT_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaEventRecord(cudaEvent_t, cudaStream_t)}: the event completes when the work enqueued on
     * {@code stream} before it is done.
     *
     * @param event  the event
     * @param stream the stream
     */
    public static void cudaEventRecord(final MemorySegment event, final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) EventRecord.HANDLE.invokeExact(event, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaEventRecord");
    }

    private static final class EventSynchronize
    {
        static final MethodHandle HANDLE = bind("cudaEventSynchronize",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_EVENT_T));
    }

    /**
     * {@code cudaEventSynchronize(cudaEvent_t)}: blocks until the event has completed.
     *
     * @param event the event
     */
    public static void cudaEventSynchronize(final MemorySegment event)
    {
        final int status;
        try
        {
            status = (int) EventSynchronize.HANDLE.invokeExact(event);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaEventSynchronize");
    }

    private static final class EventQuery
    {
        static final MethodHandle HANDLE = bind("cudaEventQuery", FunctionDescriptor.of(CUDA_ERROR_T, CUDA_EVENT_T));
    }

    /**
     * {@code cudaEventQuery(cudaEvent_t)}.
     *
     * @param event the event
     * @return true when the event has completed (or was never recorded), false while pending
     *         ({@code cudaErrorNotReady})
     */
    public static boolean cudaEventQuery(final MemorySegment event)
    {
        final int status;
        try
        {
            status = (int) EventQuery.HANDLE.invokeExact(event);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        if (status == cudaErrorNotReady)
        {
            return false;
        }
        check(status, "cudaEventQuery");
        return true;
    }

    private static final class EventElapsedTime
    {
        static final MethodHandle HANDLE = bind("cudaEventElapsedTime",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, CUDA_EVENT_T, CUDA_EVENT_T));
    }

    /**
     * {@code cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)}: both events must have completed
     * and record timing.
     *
     * @param start the earlier event
     * @param end   the later event
     * @return milliseconds from {@code start} to {@code end} (resolution about 0.5 microseconds)
     */
    public static float cudaEventElapsedTime(final MemorySegment start, final MemorySegment end)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment millis = arena.allocate(C_FLOAT);
            final int status;
            try
            {
                status = (int) EventElapsedTime.HANDLE.invokeExact(millis, start, end);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaEventElapsedTime");
            return millis.get(C_FLOAT, 0);
        }
    }

    private static final class EventDestroy
    {
        static final MethodHandle HANDLE = bind("cudaEventDestroy", FunctionDescriptor.of(CUDA_ERROR_T, CUDA_EVENT_T));
    }

    /**
     * {@code cudaEventDestroy(cudaEvent_t)}.
     *
     * @param event the event
     */
    public static void cudaEventDestroy(final MemorySegment event)
    {
        final int status;
        try
        {
            status = (int) EventDestroy.HANDLE.invokeExact(event);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaEventDestroy");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Stream capture and graphs
    // ------------------------------------------------------------------------------------------------------------

    private static final class StreamBeginCapture
    {
        static final MethodHandle HANDLE = bind("cudaStreamBeginCapture",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T, ENUM_CUDA_STREAM_CAPTURE_MODE));
    }

    /**
     * {@code cudaStreamBeginCapture(cudaStream_t, enum cudaStreamCaptureMode)}: work enqueued on {@code stream}
     * from now on is recorded into a graph instead of run. The legacy default stream cannot be captured.
     *
     * @param stream the stream
     * @param mode   a {@code cudaStreamCaptureMode*} constant
     */
    public static void cudaStreamBeginCapture(final MemorySegment stream, final int mode)
    {
        final int status;
        try
        {
            status = (int) StreamBeginCapture.HANDLE.invokeExact(stream, mode);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaStreamBeginCapture");
    }

    private static final class StreamEndCapture
    {
        static final MethodHandle HANDLE = bind("cudaStreamEndCapture",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_STREAM_T, C_POINTER));
    }

    /**
     * {@code cudaStreamEndCapture(cudaStream_t, cudaGraph_t *)}.
     *
     * @param stream the capturing stream
     * @return the captured graph; destroy it with {@link #cudaGraphDestroy}
     */
    public static MemorySegment cudaStreamEndCapture(final MemorySegment stream)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment graph = arena.allocate(CUDA_GRAPH_T);
            final int status;
            try
            {
                status = (int) StreamEndCapture.HANDLE.invokeExact(stream, graph);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaStreamEndCapture");
            return graph.get(CUDA_GRAPH_T, 0);
        }
    }

    private static final class GraphInstantiate
    {
        static final MethodHandle HANDLE = bind("cudaGraphInstantiate",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, CUDA_GRAPH_T, C_UNSIGNED_LONG_LONG));
    }

    /**
     * {@code cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long flags)}.
     *
     * @param graph a graph
     * @param flags {@code cudaGraphInstantiateFlag*} flags
     * @return the executable graph; destroy it with {@link #cudaGraphExecDestroy}
     */
    public static MemorySegment cudaGraphInstantiate(final MemorySegment graph, final long flags)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment exec = arena.allocate(CUDA_GRAPH_EXEC_T);
            final int status;
            try
            {
                status = (int) GraphInstantiate.HANDLE.invokeExact(exec, graph, flags);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaGraphInstantiate");
            return exec.get(CUDA_GRAPH_EXEC_T, 0);
        }
    }

    private static final class GraphLaunch
    {
        static final MethodHandle HANDLE = bind("cudaGraphLaunch",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_GRAPH_EXEC_T, CUDA_STREAM_T));
    }

    /**
     * {@code cudaGraphLaunch(cudaGraphExec_t, cudaStream_t)}: enqueues the whole graph.
     *
     * @param exec   the executable graph
     * @param stream the stream
     */
    public static void cudaGraphLaunch(final MemorySegment exec, final MemorySegment stream)
    {
        final int status;
        try
        {
            status = (int) GraphLaunch.HANDLE.invokeExact(exec, stream);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaGraphLaunch");
    }

    private static final class GraphExecDestroy
    {
        static final MethodHandle HANDLE = bind("cudaGraphExecDestroy",
            FunctionDescriptor.of(CUDA_ERROR_T, CUDA_GRAPH_EXEC_T));
    }

    /**
     * {@code cudaGraphExecDestroy(cudaGraphExec_t)}.
     *
     * @param exec the executable graph
     */
    public static void cudaGraphExecDestroy(final MemorySegment exec)
    {
        final int status;
        try
        {
            status = (int) GraphExecDestroy.HANDLE.invokeExact(exec);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaGraphExecDestroy");
    }

    private static final class GraphDestroy
    {
        static final MethodHandle HANDLE = bind("cudaGraphDestroy", FunctionDescriptor.of(CUDA_ERROR_T, CUDA_GRAPH_T));
    }

    /**
     * {@code cudaGraphDestroy(cudaGraph_t)}.
     *
     * @param graph the graph
     */
    public static void cudaGraphDestroy(final MemorySegment graph)
    {
        final int status;
        try
        {
            status = (int) GraphDestroy.HANDLE.invokeExact(graph);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaGraphDestroy");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Inter-process memory
    // ------------------------------------------------------------------------------------------------------------

    private static final class IpcGetMemHandle
    {
        static final MethodHandle HANDLE = bind("cudaIpcGetMemHandle",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, C_POINTER));
    }

    /**
     * {@code cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *devPtr)}: only for {@link #cudaMalloc} allocations.
     *
     * @param handle        native memory of at least {@link #CUDA_IPC_HANDLE_SIZE} bytes that receives the handle
     * @param devicePointer the base of a {@code cudaMalloc} allocation
     * @throws IllegalArgumentException when {@code handle} is too small
     */
    public static void cudaIpcGetMemHandle(final MemorySegment handle, final MemorySegment devicePointer)
    {
        if (handle.byteSize() < CUDA_IPC_MEM_HANDLE.byteSize())
        {
            throw new IllegalArgumentException("cudaIpcGetMemHandle: the handle segment must hold "
                + CUDA_IPC_MEM_HANDLE.byteSize() + " bytes, was " + handle.byteSize());
        }
        final int status;
        try
        {
            status = (int) IpcGetMemHandle.HANDLE.invokeExact(handle, devicePointer);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaIpcGetMemHandle");
    }

    private static final class IpcOpenMemHandle
    {
        static final MethodHandle HANDLE = bind("cudaIpcOpenMemHandle",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER, CUDA_IPC_MEM_HANDLE, C_UNSIGNED_INT));
    }

    /**
     * {@code cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)}: maps another
     * process's allocation. The handle is passed by value (64 bytes). A process cannot open its own handles.
     *
     * @param handle {@link #CUDA_IPC_HANDLE_SIZE} bytes from {@link #cudaIpcGetMemHandle} in another process
     * @param flags  {@link #cudaIpcMemLazyEnablePeerAccess}
     * @return the mapped device pointer; unmap it with {@link #cudaIpcCloseMemHandle}
     * @throws IllegalArgumentException when {@code handle} is not exactly 64 bytes
     */
    public static MemorySegment cudaIpcOpenMemHandle(final MemorySegment handle, final int flags)
    {
        if (handle.byteSize() != CUDA_IPC_MEM_HANDLE.byteSize())
        {
            throw new IllegalArgumentException("cudaIpcOpenMemHandle: the handle must be exactly "
                + CUDA_IPC_MEM_HANDLE.byteSize() + " bytes, was " + handle.byteSize());
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pointer = arena.allocate(C_POINTER);
            final int status;
            try
            {
                status = (int) IpcOpenMemHandle.HANDLE.invokeExact(pointer, handle, flags);
            }
            catch (final Throwable t)
            {
                throw NativeBinder.rethrow(t);
            }
            check(status, "cudaIpcOpenMemHandle");
            return pointer.get(C_POINTER, 0);
        }
    }

    private static final class IpcCloseMemHandle
    {
        static final MethodHandle HANDLE = bind("cudaIpcCloseMemHandle",
            FunctionDescriptor.of(CUDA_ERROR_T, C_POINTER));
    }

    /**
     * {@code cudaIpcCloseMemHandle(void *devPtr)}.
     *
     * @param devicePointer a pointer from {@link #cudaIpcOpenMemHandle}
     */
    public static void cudaIpcCloseMemHandle(final MemorySegment devicePointer)
    {
        final int status;
        try
        {
            status = (int) IpcCloseMemHandle.HANDLE.invokeExact(devicePointer);
        }
        catch (final Throwable t)
        {
            throw NativeBinder.rethrow(t);
        }
        check(status, "cudaIpcCloseMemHandle");
    }
}
