package io.ingot.onnx.capi;

import io.ingot.cuda.ThrowingHandles;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * FFM bindings of ONNX Runtime's C API ({@code onnxruntime_c_api.h} of ONNX Runtime {@value OrtLibraryFile#VERSION}),
 * hand-written in jextract's shape. The library exports one symbol, {@code OrtGetApiBase}; everything else is reached
 * through {@code OrtApi}, a struct of function pointers whose order the header fixes (ONNX Runtime only appends to
 * it). This class loads the library, asks {@code OrtApiBase::GetApi} for the table of {@link #ORT_API_VERSION}, and
 * makes each bound function's downcall handle once, from the pointer at the slot the header gives it
 * ({@link #downcall}); {@link OrtSessionApi}, {@link OrtValueApi} and {@link OrtIoBindingApi} hold those handles
 * and call them with {@code invokeExact} and exact types. It also holds the header's constants (enum values, named
 * and valued as in the header) and the layout of {@code OrtApiBase}.
 *
 * <p><b>Errors.</b> Every {@code ORT_API2_STATUS} function returns an {@code OrtStatus*}, {@code NULL} on success;
 * {@link #check} turns anything else into an {@link OrtException} carrying the function's name, the error code and
 * ONNX Runtime's message, and releases the status.
 *
 * <p><b>Loading.</b> {@link OrtLibraryFile#fromEnvironment()} says where the library is (extracted from the Maven
 * artifact's jar unless a file is named). When it cannot be loaded, or its {@code GetApi} refuses the version, class
 * initialisation still succeeds: {@link #isAvailable()} is false, {@link #unavailableReason()} says why, and every
 * bound function throws an {@link OnnxRuntimeUnavailableException} with that reason.
 *
 * <p><b>Linker options.</b> Accessors that neither block nor allocate much ({@code GetErrorCode},
 * {@code GetTensorMutableData}, the shape getters) are {@link Linker.Option#critical(boolean) critical}; nothing here
 * registers a Java upcall with ONNX Runtime (no custom logger, no custom allocator).
 *
 * <p>Thread-safe: the handles are immutable, ONNX Runtime's own rules apply to the objects passed.
 */
public final class OrtApi
{
    private OrtApi()
    {
    }

    /** {@code ORT_API_VERSION} of the header: the table version asked of {@code GetApi}. */
    public static final int ORT_API_VERSION = 23;
    /** Slots in {@code OrtApi} of that version ({@code sizeof(OrtApi) / sizeof(void*)}). */
    public static final int ORT_API_SLOTS = 390;

    // enum ONNXTensorElementDataType
    /** Undefined. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED = 0;
    /** {@code float}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT = 1;
    /** {@code uint8_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 = 2;
    /** {@code int8_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 = 3;
    /** {@code uint16_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 = 4;
    /** {@code int16_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16 = 5;
    /** {@code int32_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 = 6;
    /** {@code int64_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 = 7;
    /** {@code std::string}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING = 8;
    /** {@code bool}, one byte. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL = 9;
    /** IEEE half precision. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 = 10;
    /** {@code double}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE = 11;
    /** {@code uint32_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32 = 12;
    /** {@code uint64_t}. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64 = 13;
    /** Complex of two floats (no Triton type). */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX64 = 14;
    /** Complex of two doubles (no Triton type). */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX128 = 15;
    /** bfloat16. */
    public static final int ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16 = 16;

    // enum ONNXType
    /** A tensor. */
    public static final int ONNX_TYPE_TENSOR = 1;
    /** A sequence. */
    public static final int ONNX_TYPE_SEQUENCE = 2;
    /** A map. */
    public static final int ONNX_TYPE_MAP = 3;

    // enum OrtLoggingLevel
    /** Warnings and worse. */
    public static final int ORT_LOGGING_LEVEL_WARNING = 2;
    /** Errors and worse. */
    public static final int ORT_LOGGING_LEVEL_ERROR = 3;

    // enum OrtErrorCode
    /** Success. */
    public static final int ORT_OK = 0;
    /** A failure. */
    public static final int ORT_FAIL = 1;
    /** An invalid argument. */
    public static final int ORT_INVALID_ARGUMENT = 2;
    /** No such file. */
    public static final int ORT_NO_SUCHFILE = 3;
    /** No model. */
    public static final int ORT_NO_MODEL = 4;
    /** An engine error. */
    public static final int ORT_ENGINE_ERROR = 5;
    /** A runtime exception. */
    public static final int ORT_RUNTIME_EXCEPTION = 6;
    /** The model is not a valid protobuf. */
    public static final int ORT_INVALID_PROTOBUF = 7;
    /** The model is already loaded. */
    public static final int ORT_MODEL_LOADED = 8;
    /** Not implemented. */
    public static final int ORT_NOT_IMPLEMENTED = 9;
    /** An invalid graph. */
    public static final int ORT_INVALID_GRAPH = 10;
    /** An execution provider failed. */
    public static final int ORT_EP_FAIL = 11;

    // enum GraphOptimizationLevel
    /** No graph optimization. */
    public static final int ORT_DISABLE_ALL = 0;
    /** Basic optimizations. */
    public static final int ORT_ENABLE_BASIC = 1;
    /** Basic and extended optimizations. */
    public static final int ORT_ENABLE_EXTENDED = 2;
    /** Every optimization. */
    public static final int ORT_ENABLE_ALL = 99;

    // enum ExecutionMode
    /** Operators one after the other. */
    public static final int ORT_SEQUENTIAL = 0;
    /** Independent operators in parallel (inter-op threads). */
    public static final int ORT_PARALLEL = 1;

    // enum OrtAllocatorType, enum OrtMemType
    /** A plain device allocator. */
    public static final int OrtDeviceAllocator = 0;
    /** The arena allocator. */
    public static final int OrtArenaAllocator = 1;
    /** The execution provider's default memory. */
    public static final int OrtMemTypeDefault = 0;

    /** C {@code void *}. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS.withName("void *");
    /** C {@code int} (and every enum). */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** C {@code size_t}. */
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG.withName("size_t");
    /** C {@code int64_t}. */
    public static final ValueLayout.OfLong INT64_T = ValueLayout.JAVA_LONG.withName("int64_t");

    /** {@code struct OrtApiBase { const OrtApi* (*GetApi)(uint32_t); const char* (*GetVersionString)(void); }}. */
    public static final StructLayout ORT_API_BASE = MemoryLayout.structLayout(
        C_POINTER.withName("GetApi"),
        C_POINTER.withName("GetVersionString")).withName("OrtApiBase");

    private static final Linker LINKER = Linker.nativeLinker();
    /** For the accessors: short, no callbacks into Java. */
    static final Linker.Option CRITICAL = Linker.Option.critical(false);
    private static final Table TABLE = Table.load(OrtLibraryFile.fromEnvironment());
    /** Every bound function: its name and its slot in {@code OrtApi}, in binding order (the header test reads it). */
    private static final Map<String, Integer> BOUND = new LinkedHashMap<>();

    private static final MethodHandle GET_ERROR_CODE = downcall("GetErrorCode", 1,
        FunctionDescriptor.of(C_INT, C_POINTER), CRITICAL);
    private static final MethodHandle GET_ERROR_MESSAGE = downcall("GetErrorMessage", 2,
        FunctionDescriptor.of(C_POINTER, C_POINTER), CRITICAL);
    private static final MethodHandle RELEASE_STATUS = downcall("ReleaseStatus", 93,
        FunctionDescriptor.ofVoid(C_POINTER), CRITICAL);
    private static final MethodHandle CREATE_STATUS = downcall("CreateStatus", 0,
        FunctionDescriptor.of(C_POINTER, C_INT, C_POINTER));

    /**
     * Makes the downcall handle of one {@code OrtApi} slot.
     *
     * @param name       the member's name in {@code OrtApi}
     * @param slot       its index in the table ({@code offsetof(OrtApi, name) / sizeof(void*)})
     * @param descriptor its C signature
     * @param options    linker options
     * @return the handle, or one that throws {@link OnnxRuntimeUnavailableException} when the table is missing
     */
    @SuppressWarnings("restricted") // binding ONNX Runtime's function table is this package's job
    static MethodHandle downcall(final String name, final int slot, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        synchronized (BOUND)
        {
            BOUND.put(name, slot);
        }
        if (TABLE.failure != null)
        {
            return ThrowingHandles.of(descriptor.toMethodType(), () -> new OnnxRuntimeUnavailableException(
                TABLE.failure));
        }
        final MemorySegment function = TABLE.api.getAtIndex(ValueLayout.ADDRESS, slot);
        if (function.address() == 0)
        {
            return ThrowingHandles.of(descriptor.toMethodType(), () -> new OnnxRuntimeUnavailableException(
                "OrtApi slot " + slot + " (" + name + ") is NULL in " + TABLE.location));
        }
        return LINKER.downcallHandle(function, descriptor, options);
    }

    /** @return every bound function's name and slot, in binding order (after {@link #bindAll()}) */
    public static Map<String, Integer> boundFunctions()
    {
        bindAll();
        synchronized (BOUND)
        {
            return Map.copyOf(BOUND);
        }
    }

    /** Initialises every holder class, so that {@link #boundFunctions()} lists all their handles. */
    static void bindAll()
    {
        try
        {
            Class.forName(OrtSessionApi.class.getName(), true, OrtApi.class.getClassLoader());
            Class.forName(OrtValueApi.class.getName(), true, OrtApi.class.getClassLoader());
            Class.forName(OrtIoBindingApi.class.getName(), true, OrtApi.class.getClassLoader());
        }
        catch (final ClassNotFoundException impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }

    /** @return true when the library was loaded and gave the table of {@link #ORT_API_VERSION} */
    public static boolean isAvailable()
    {
        return TABLE.failure == null;
    }

    /** @return why ONNX Runtime cannot be used, or empty when it can */
    public static Optional<String> unavailableReason()
    {
        return Optional.ofNullable(TABLE.failure);
    }

    /** @throws OnnxRuntimeUnavailableException when ONNX Runtime cannot be used, with the reason */
    public static void requireAvailable()
    {
        if (TABLE.failure != null)
        {
            throw new OnnxRuntimeUnavailableException(TABLE.failure);
        }
    }

    /** @return the library file loaded, or empty */
    public static Optional<Path> location()
    {
        return Optional.ofNullable(TABLE.location);
    }

    /** @return {@code OrtApiBase::GetVersionString()} of the loaded library, or empty */
    public static Optional<String> versionString()
    {
        return Optional.ofNullable(TABLE.version);
    }

    /** @return the {@code const OrtApi*} table (a segment of {@link #ORT_API_SLOTS} pointers), or NULL */
    public static MemorySegment table()
    {
        return TABLE.api == null ? MemorySegment.NULL : TABLE.api;
    }

    /**
     * Turns a returned {@code OrtStatus*} into an exception; releases it.
     *
     * @param function the function that returned it, for the message
     * @param status   its result
     * @throws OrtException when {@code status} is not {@code NULL}
     */
    public static void check(final String function, final MemorySegment status)
    {
        if (status.address() != 0)
        {
            throw failure(function, status);
        }
    }

    /**
     * @param function the function that returned the status
     * @param status   a non-NULL {@code OrtStatus*}, released here
     * @return the exception describing it
     */
    static OrtException failure(final String function, final MemorySegment status)
    {
        try
        {
            final int code = (int) GET_ERROR_CODE.invokeExact(status);
            final String message = string((MemorySegment) GET_ERROR_MESSAGE.invokeExact(status));
            return new OrtException(function, code, message);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
        finally
        {
            ReleaseStatus(status);
        }
    }

    /** @param status {@code void ReleaseStatus(OrtStatus*)}; {@code NULL} is allowed */
    public static void ReleaseStatus(final MemorySegment status)
    {
        try
        {
            RELEASE_STATUS.invokeExact(status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param code    an {@code OrtErrorCode}
     * @param message a C string
     * @return {@code OrtStatus* CreateStatus(OrtErrorCode, const char*)}, for the caller to check or release
     */
    public static MemorySegment CreateStatus(final int code, final MemorySegment message)
    {
        try
        {
            return (MemorySegment) CREATE_STATUS.invokeExact(code, message);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param code an {@code OrtErrorCode}
     * @return its name in the header, or {@code OrtErrorCode(n)}
     */
    public static String codeName(final int code)
    {
        return switch (code)
        {
            case ORT_OK -> "ORT_OK";
            case ORT_FAIL -> "ORT_FAIL";
            case ORT_INVALID_ARGUMENT -> "ORT_INVALID_ARGUMENT";
            case ORT_NO_SUCHFILE -> "ORT_NO_SUCHFILE";
            case ORT_NO_MODEL -> "ORT_NO_MODEL";
            case ORT_ENGINE_ERROR -> "ORT_ENGINE_ERROR";
            case ORT_RUNTIME_EXCEPTION -> "ORT_RUNTIME_EXCEPTION";
            case ORT_INVALID_PROTOBUF -> "ORT_INVALID_PROTOBUF";
            case ORT_MODEL_LOADED -> "ORT_MODEL_LOADED";
            case ORT_NOT_IMPLEMENTED -> "ORT_NOT_IMPLEMENTED";
            case ORT_INVALID_GRAPH -> "ORT_INVALID_GRAPH";
            case ORT_EP_FAIL -> "ORT_EP_FAIL";
            default -> "OrtErrorCode(" + code + ")";
        };
    }

    /**
     * @param cString a NUL-terminated C string, or {@code NULL}
     * @return its text (UTF-8), {@code ""} for {@code NULL}
     */
    @SuppressWarnings("restricted") // the C API returns unsized char*; the NUL bounds the read
    public static String string(final MemorySegment cString)
    {
        return cString.address() == 0 ? "" : cString.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /**
     * @param t what a downcall threw
     * @return an unchecked exception to throw (downcalls throw nothing checked)
     */
    static RuntimeException rethrow(final Throwable t)
    {
        if (t instanceof RuntimeException unchecked)
        {
            return unchecked;
        }
        if (t instanceof Error error)
        {
            throw error;
        }
        return new IllegalStateException(t);
    }

    /** The loaded library and its function table, or why there is none. */
    private static final class Table
    {
        private final MemorySegment api;
        private final Path location;
        private final String version;
        private final String failure;

        private Table(final MemorySegment api, final Path location, final String version, final String failure)
        {
            this.api = api;
            this.location = location;
            this.version = version;
            this.failure = failure;
        }

        @SuppressWarnings("restricted") // loading ONNX Runtime and reading its table is this class's job
        static Table load(final OrtLibraryFile where)
        {
            final Path file;
            try
            {
                file = where.resolve();
            }
            catch (final OnnxRuntimeUnavailableException e)
            {
                return new Table(null, null, null, "ONNX Runtime cannot be loaded: " + e.getMessage());
            }
            try
            {
                final SymbolLookup symbols = SymbolLookup.libraryLookup(file, Arena.global());
                final MemorySegment getApiBase = symbols.find("OrtGetApiBase").orElse(null);
                if (getApiBase == null)
                {
                    return new Table(null, file, null, file + " does not export OrtGetApiBase: it is not ONNX Runtime");
                }
                final MemorySegment base = ((MemorySegment) LINKER.downcallHandle(getApiBase,
                    FunctionDescriptor.of(C_POINTER)).invokeExact()).reinterpret(ORT_API_BASE.byteSize());
                final MemorySegment versionString = (MemorySegment) LINKER.downcallHandle(
                    base.get(ValueLayout.ADDRESS, ORT_API_BASE.byteOffset(
                        MemoryLayout.PathElement.groupElement("GetVersionString"))),
                    FunctionDescriptor.of(C_POINTER)).invokeExact();
                final String version = string(versionString);
                final MemorySegment api = (MemorySegment) LINKER.downcallHandle(
                    base.get(ValueLayout.ADDRESS, ORT_API_BASE.byteOffset(
                        MemoryLayout.PathElement.groupElement("GetApi"))),
                    FunctionDescriptor.of(C_POINTER, C_INT)).invokeExact(ORT_API_VERSION);
                if (api.address() == 0)
                {
                    return new Table(null, file, version, "ONNX Runtime " + version + " at " + file
                        + " refuses OrtApi version " + ORT_API_VERSION + "; Ingot is bound to ONNX Runtime "
                        + OrtLibraryFile.VERSION + " (taken from " + where.origin() + ")");
                }
                return new Table(api.reinterpret(ValueLayout.ADDRESS.byteSize() * ORT_API_SLOTS), file, version,
                    null);
            }
            catch (final IllegalArgumentException | IllegalCallerException e)
            {
                return new Table(null, file, null, "ONNX Runtime cannot be loaded: dlopen(" + file + ") failed: "
                    + e.getMessage() + " (taken from " + where.origin() + ")");
            }
            catch (final Throwable t)
            {
                throw rethrow(t);
            }
        }
    }
}
