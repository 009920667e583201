package io.ingot.tensorflow.capi;

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
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * FFM bindings of TensorFlow's C API ({@code libtensorflow_cc.so.2} of TensorFlow 2.18.0), hand-written in
 * jextract's shape: one holder class, one {@code static final MethodHandle} per function, resolved once when this
 * class initialises and called with {@code invokeExact} and exact types; constants named and valued as in the
 * headers ({@code tf_datatype.h}, {@code tf_status.h}/{@code tsl_status.h}, {@code ctstring_internal.h}); struct
 * layouts with the headers' member names.
 *
 * <p><b>Calls</b> are the raw C functions: handles and C strings are {@link MemorySegment}s (zero-length segments
 * that only carry an address), failures are reported as the C API reports them (a {@code TF_Status*} out-parameter,
 * a {@code NULL} result). {@link TfStatus} and {@link TfSession} turn them into exceptions.
 *
 * <p><b>Loading.</b> {@link LibraryLocation#fromEnvironment()} says where the library is (extracted from the
 * {@code tensorflow-core-native} jar unless a folder is named); the framework library is loaded first, then the C API
 * library, both by absolute path. When that fails, class initialisation still succeeds: {@link #isAvailable()} is
 * false, {@link #unavailableReason()} says why, and every function throws a {@link TensorFlowUnavailableException}
 * with that reason. The constants and layouts are usable without the library.
 *
 * <p><b>Linker options.</b> The accessors that neither block nor call back ({@code TF_GetCode}, {@code TF_Dim}, ...)
 * are {@link Linker.Option#critical(boolean) critical}; {@code TF_NewTensor}, {@code TF_DeleteTensor} and
 * {@code TF_SessionRun} are not, because they may call a tensor's deallocator, which is a Java upcall.
 *
 * <p>All methods are thread-safe as far as Java is concerned; TensorFlow's own rules apply to the objects passed.
 */
public final class TensorFlowC
{
    private TensorFlowC()
    {
    }

    // ------------------------------------------------------------------------------------------------------------
    // Constants (tf_datatype.h: enum TF_DataType; the values are those of types.proto's DataType).
    // ------------------------------------------------------------------------------------------------------------

    /** {@code float}. */
    public static final int TF_FLOAT = 1;
    /** {@code double}. */
    public static final int TF_DOUBLE = 2;
    /** {@code int32_t}. */
    public static final int TF_INT32 = 3;
    /** {@code uint8_t}. */
    public static final int TF_UINT8 = 4;
    /** {@code int16_t}. */
    public static final int TF_INT16 = 5;
    /** {@code int8_t}. */
    public static final int TF_INT8 = 6;
    /** Strings: elements are {@code TF_TString} (24 bytes each). */
    public static final int TF_STRING = 7;
    /** Single-precision complex (no Triton type). */
    public static final int TF_COMPLEX64 = 8;
    /** {@code int64_t}. */
    public static final int TF_INT64 = 9;
    /** {@code bool}, one byte. */
    public static final int TF_BOOL = 10;
    /** bfloat16. */
    public static final int TF_BFLOAT16 = 14;
    /** {@code uint16_t}. */
    public static final int TF_UINT16 = 17;
    /** Double-precision complex (no Triton type). */
    public static final int TF_COMPLEX128 = 18;
    /** IEEE half precision. */
    public static final int TF_HALF = 19;
    /** A resource handle (no Triton type). */
    public static final int TF_RESOURCE = 20;
    /** A variant (no Triton type). */
    public static final int TF_VARIANT = 21;
    /** {@code uint32_t}. */
    public static final int TF_UINT32 = 22;
    /** {@code uint64_t}. */
    public static final int TF_UINT64 = 23;

    // tsl_status.h: enum TSL_Code, which tf_status.h's TF_Code aliases.
    /** Success. */
    public static final int TF_OK = 0;
    /** Cancelled. */
    public static final int TF_CANCELLED = 1;
    /** Unknown. */
    public static final int TF_UNKNOWN = 2;
    /** An argument is invalid. */
    public static final int TF_INVALID_ARGUMENT = 3;
    /** A deadline passed. */
    public static final int TF_DEADLINE_EXCEEDED = 4;
    /** Something was not found. */
    public static final int TF_NOT_FOUND = 5;
    /** Something already exists. */
    public static final int TF_ALREADY_EXISTS = 6;
    /** Permission denied. */
    public static final int TF_PERMISSION_DENIED = 7;
    /** A resource is exhausted (memory). */
    public static final int TF_RESOURCE_EXHAUSTED = 8;
    /** A precondition failed. */
    public static final int TF_FAILED_PRECONDITION = 9;
    /** Aborted. */
    public static final int TF_ABORTED = 10;
    /** Out of range. */
    public static final int TF_OUT_OF_RANGE = 11;
    /** Not implemented. */
    public static final int TF_UNIMPLEMENTED = 12;
    /** An internal error. */
    public static final int TF_INTERNAL = 13;
    /** Unavailable. */
    public static final int TF_UNAVAILABLE = 14;
    /** Data loss. */
    public static final int TF_DATA_LOSS = 15;
    /** Unauthenticated. */
    public static final int TF_UNAUTHENTICATED = 16;

    // ctstring_internal.h: enum TF_TString_Type, the low two bits of a TF_TString's first byte (little-endian).
    /** Up to {@link #TF_TString_SmallCapacity} bytes stored inline. */
    public static final int TF_TSTR_SMALL = 0x00;
    /** A heap buffer owned by the string. */
    public static final int TF_TSTR_LARGE = 0x01;
    /** Bytes at an offset from the string itself. */
    public static final int TF_TSTR_OFFSET = 0x02;
    /** A view of bytes the string does not own. */
    public static final int TF_TSTR_VIEW = 0x03;
    /** The type bits. */
    public static final int TF_TSTR_TYPE_MASK = 0x03;
    /** Inline capacity of a small string: 24 bytes less the size byte and the terminating NUL. */
    public static final int TF_TString_SmallCapacity = 22;

    // ------------------------------------------------------------------------------------------------------------
    // Layouts. Member names are the C member names.
    // ------------------------------------------------------------------------------------------------------------

    /** C {@code void *}. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS.withName("void *");
    /** C {@code int}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** C {@code int64_t}. */
    public static final ValueLayout.OfLong INT64_T = ValueLayout.JAVA_LONG.withName("int64_t");
    /** C {@code size_t}. */
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG.withName("size_t");

    /** {@code typedef struct TF_Output { TF_Operation* oper; int index; } TF_Output;} (16 bytes). */
    public static final StructLayout TF_OUTPUT = MemoryLayout.structLayout(
        C_POINTER.withName("oper"),
        C_INT.withName("index"),
        MemoryLayout.paddingLayout(4)).withName("TF_Output");

    /** {@code typedef struct TF_Buffer { const void* data; size_t length; void (*data_deallocator)(...); }}. */
    public static final StructLayout TF_BUFFER = MemoryLayout.structLayout(
        C_POINTER.withName("data"),
        SIZE_T.withName("length"),
        C_POINTER.withName("data_deallocator")).withName("TF_Buffer");

    /** {@code TF_TString}: a 24-byte union (small, large, offset, view). */
    public static final MemoryLayout TF_TSTRING = MemoryLayout.sequenceLayout(24, ValueLayout.JAVA_BYTE)
        .withByteAlignment(8).withName("TF_TString");

    /** {@code void (*deallocator)(void* data, size_t len, void* arg)} of {@code TF_NewTensor}. */
    public static final FunctionDescriptor TF_DEALLOCATOR = FunctionDescriptor.ofVoid(C_POINTER, SIZE_T, C_POINTER);

    // ------------------------------------------------------------------------------------------------------------
    // Functions
    // ------------------------------------------------------------------------------------------------------------

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    private static final Binding BINDING = Binding.load(LibraryLocation.fromEnvironment());

    private static final MethodHandle VERSION = BINDING.downcall("TF_Version", FunctionDescriptor.of(C_POINTER),
        CRITICAL);
    private static final MethodHandle NEW_STATUS = BINDING.downcall("TF_NewStatus",
        FunctionDescriptor.of(C_POINTER));
    private static final MethodHandle DELETE_STATUS = BINDING.downcall("TF_DeleteStatus",
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle GET_CODE = BINDING.downcall("TF_GetCode",
        FunctionDescriptor.of(C_INT, C_POINTER), CRITICAL);
    private static final MethodHandle MESSAGE = BINDING.downcall("TF_Message",
        FunctionDescriptor.of(C_POINTER, C_POINTER), CRITICAL);
    private static final MethodHandle NEW_BUFFER_FROM_STRING = BINDING.downcall("TF_NewBufferFromString",
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T));
    private static final MethodHandle DELETE_BUFFER = BINDING.downcall("TF_DeleteBuffer",
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle NEW_SESSION_OPTIONS = BINDING.downcall("TF_NewSessionOptions",
        FunctionDescriptor.of(C_POINTER));
    private static final MethodHandle SET_CONFIG = BINDING.downcall("TF_SetConfig",
        FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, SIZE_T, C_POINTER));
    private static final MethodHandle DELETE_SESSION_OPTIONS = BINDING.downcall("TF_DeleteSessionOptions",
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle NEW_GRAPH = BINDING.downcall("TF_NewGraph", FunctionDescriptor.of(C_POINTER));
    private static final MethodHandle DELETE_GRAPH = BINDING.downcall("TF_DeleteGraph",
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle GRAPH_OPERATION_BY_NAME = BINDING.downcall("TF_GraphOperationByName",
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle OPERATION_NUM_OUTPUTS = BINDING.downcall("TF_OperationNumOutputs",
        FunctionDescriptor.of(C_INT, C_POINTER), CRITICAL);
    private static final MethodHandle OPERATION_OUTPUT_TYPE = BINDING.downcall("TF_OperationOutputType",
        FunctionDescriptor.of(C_INT, TF_OUTPUT), CRITICAL);
    private static final MethodHandle LOAD_SESSION_FROM_SAVED_MODEL = BINDING.downcall(
        "TF_LoadSessionFromSavedModel", FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER,
            C_INT, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle SESSION_RUN = BINDING.downcall("TF_SessionRun",
        FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER, C_INT,
            C_POINTER, C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle CLOSE_SESSION = BINDING.downcall("TF_CloseSession",
        FunctionDescriptor.ofVoid(C_POINTER, C_POINTER));
    private static final MethodHandle DELETE_SESSION = BINDING.downcall("TF_DeleteSession",
        FunctionDescriptor.ofVoid(C_POINTER, C_POINTER));
    private static final MethodHandle NEW_TENSOR = BINDING.downcall("TF_NewTensor",
        FunctionDescriptor.of(C_POINTER, C_INT, C_POINTER, C_INT, C_POINTER, SIZE_T, C_POINTER, C_POINTER));
    private static final MethodHandle ALLOCATE_TENSOR = BINDING.downcall("TF_AllocateTensor",
        FunctionDescriptor.of(C_POINTER, C_INT, C_POINTER, C_INT, SIZE_T));
    private static final MethodHandle DELETE_TENSOR = BINDING.downcall("TF_DeleteTensor",
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle TENSOR_TYPE = BINDING.downcall("TF_TensorType",
        FunctionDescriptor.of(C_INT, C_POINTER), CRITICAL);
    private static final MethodHandle NUM_DIMS = BINDING.downcall("TF_NumDims",
        FunctionDescriptor.of(C_INT, C_POINTER), CRITICAL);
    private static final MethodHandle DIM = BINDING.downcall("TF_Dim",
        FunctionDescriptor.of(INT64_T, C_POINTER, C_INT), CRITICAL);
    private static final MethodHandle TENSOR_BYTE_SIZE = BINDING.downcall("TF_TensorByteSize",
        FunctionDescriptor.of(SIZE_T, C_POINTER), CRITICAL);
    private static final MethodHandle TENSOR_DATA = BINDING.downcall("TF_TensorData",
        FunctionDescriptor.of(C_POINTER, C_POINTER), CRITICAL);
    private static final MethodHandle TENSOR_DEFAULT_ALIGNMENT = BINDING.downcall("TF_TensorDefaultAlignment",
        FunctionDescriptor.of(SIZE_T), CRITICAL);
    private static final MethodHandle DATA_TYPE_SIZE = BINDING.downcall("TF_DataTypeSize",
        FunctionDescriptor.of(SIZE_T, C_INT), CRITICAL);

    /** Names of every function this class binds, for the test that checks the library exports them. */
    public static final List<String> BOUND_FUNCTIONS = List.copyOf(BINDING.names);

    /** @return true when the library was loaded and exports every bound function */
    public static boolean isAvailable()
    {
        return BINDING.failure == null && BINDING.missing.isEmpty();
    }

    /** @return why TensorFlow cannot be used, or empty when it can */
    public static Optional<String> unavailableReason()
    {
        if (BINDING.failure != null)
        {
            return Optional.of(BINDING.failure);
        }
        if (!BINDING.missing.isEmpty())
        {
            return Optional.of(LibraryLocation.CC_LIBRARY + " at " + BINDING.location + " does not export "
                + BINDING.missing + ": it is not the TensorFlow 2.x C API these bindings were written against");
        }
        return Optional.empty();
    }

    /**
     * @throws TensorFlowUnavailableException when TensorFlow cannot be used, with the reason
     */
    public static void requireAvailable()
    {
        final Optional<String> reason = unavailableReason();
        if (reason.isPresent())
        {
            throw new TensorFlowUnavailableException(reason.get());
        }
    }

    /** @return the folder the libraries were loaded from, or empty when they were not loaded */
    public static Optional<Path> location()
    {
        return Optional.ofNullable(BINDING.location);
    }

    /**
     * @param code a {@code TF_Code}
     * @return its name ({@code TF_INVALID_ARGUMENT}, ...), or {@code TF_Code(n)} for an unknown value
     */
    public static String codeName(final int code)
    {
        return switch (code)
        {
            case TF_OK -> "TF_OK";
            case TF_CANCELLED -> "TF_CANCELLED";
            case TF_UNKNOWN -> "TF_UNKNOWN";
            case TF_INVALID_ARGUMENT -> "TF_INVALID_ARGUMENT";
            case TF_DEADLINE_EXCEEDED -> "TF_DEADLINE_EXCEEDED";
            case TF_NOT_FOUND -> "TF_NOT_FOUND";
            case TF_ALREADY_EXISTS -> "TF_ALREADY_EXISTS";
            case TF_PERMISSION_DENIED -> "TF_PERMISSION_DENIED";
            case TF_RESOURCE_EXHAUSTED -> "TF_RESOURCE_EXHAUSTED";
            case TF_FAILED_PRECONDITION -> "TF_FAILED_PRECONDITION";
            case TF_ABORTED -> "TF_ABORTED";
            case TF_OUT_OF_RANGE -> "TF_OUT_OF_RANGE";
            case TF_UNIMPLEMENTED -> "TF_UNIMPLEMENTED";
            case TF_INTERNAL -> "TF_INTERNAL";
            case TF_UNAVAILABLE -> "TF_UNAVAILABLE";
            case TF_DATA_LOSS -> "TF_DATA_LOSS";
            case TF_UNAUTHENTICATED -> "TF_UNAUTHENTICATED";
            default -> "TF_Code(" + code + ")";
        };
    }

    /**
     * @param cString a NUL-terminated C string, or {@code NULL}
     * @return its text, {@code ""} for {@code NULL}
     */
    @SuppressWarnings("restricted") // the C API returns unsized char*; the NUL bounds the read
    public static String string(final MemorySegment cString)
    {
        return cString.address() == 0 ? "" : cString.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** @return {@code const char* TF_Version(void)} */
    public static MemorySegment TF_Version()
    {
        try
        {
            return (MemorySegment) VERSION.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code TF_Status* TF_NewStatus(void)} */
    public static MemorySegment TF_NewStatus()
    {
        try
        {
            return (MemorySegment) NEW_STATUS.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param status {@code void TF_DeleteStatus(TF_Status*)} */
    public static void TF_DeleteStatus(final MemorySegment status)
    {
        try
        {
            DELETE_STATUS.invokeExact(status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param status a status
     * @return {@code TF_Code TF_GetCode(const TF_Status*)}
     */
    public static int TF_GetCode(final MemorySegment status)
    {
        try
        {
            return (int) GET_CODE.invokeExact(status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param status a status
     * @return {@code const char* TF_Message(const TF_Status*)}: valid until the status changes
     */
    public static MemorySegment TF_Message(final MemorySegment status)
    {
        try
        {
            return (MemorySegment) MESSAGE.invokeExact(status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param proto  bytes to copy
     * @param length their length
     * @return {@code TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len)}: a copy
     */
    public static MemorySegment TF_NewBufferFromString(final MemorySegment proto, final long length)
    {
        try
        {
            return (MemorySegment) NEW_BUFFER_FROM_STRING.invokeExact(proto, length);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param buffer {@code void TF_DeleteBuffer(TF_Buffer*)} */
    public static void TF_DeleteBuffer(final MemorySegment buffer)
    {
        try
        {
            DELETE_BUFFER.invokeExact(buffer);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code TF_SessionOptions* TF_NewSessionOptions(void)} */
    public static MemorySegment TF_NewSessionOptions()
    {
        try
        {
            return (MemorySegment) NEW_SESSION_OPTIONS.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code void TF_SetConfig(TF_SessionOptions*, const void* proto, size_t proto_len, TF_Status*)}.
     *
     * @param options  session options
     * @param proto    a serialized {@code ConfigProto}
     * @param length   its length
     * @param status   receives the outcome
     */
    public static void TF_SetConfig(final MemorySegment options, final MemorySegment proto, final long length,
        final MemorySegment status)
    {
        try
        {
            SET_CONFIG.invokeExact(options, proto, length, status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param options {@code void TF_DeleteSessionOptions(TF_SessionOptions*)} */
    public static void TF_DeleteSessionOptions(final MemorySegment options)
    {
        try
        {
            DELETE_SESSION_OPTIONS.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code TF_Graph* TF_NewGraph(void)} */
    public static MemorySegment TF_NewGraph()
    {
        try
        {
            return (MemorySegment) NEW_GRAPH.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param graph {@code void TF_DeleteGraph(TF_Graph*)} */
    public static void TF_DeleteGraph(final MemorySegment graph)
    {
        try
        {
            DELETE_GRAPH.invokeExact(graph);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param graph a graph
     * @param name  an operation name (a C string)
     * @return {@code TF_Operation* TF_GraphOperationByName(TF_Graph*, const char*)}, {@code NULL} when absent
     */
    public static MemorySegment TF_GraphOperationByName(final MemorySegment graph, final MemorySegment name)
    {
        try
        {
            return (MemorySegment) GRAPH_OPERATION_BY_NAME.invokeExact(graph, name);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param operation an operation
     * @return {@code int TF_OperationNumOutputs(TF_Operation*)}
     */
    public static int TF_OperationNumOutputs(final MemorySegment operation)
    {
        try
        {
            return (int) OPERATION_NUM_OUTPUTS.invokeExact(operation);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param output a {@link #TF_OUTPUT} struct, passed by value
     * @return {@code TF_DataType TF_OperationOutputType(TF_Output)}
     */
    public static int TF_OperationOutputType(final MemorySegment output)
    {
        try
        {
            return (int) OPERATION_OUTPUT_TYPE.invokeExact(output);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code TF_Session* TF_LoadSessionFromSavedModel(const TF_SessionOptions*, const TF_Buffer* run_options,
     * const char* export_dir, const char* const* tags, int tags_len, TF_Graph* graph, TF_Buffer* meta_graph_def,
     * TF_Status*)}.
     *
     * @param options      session options
     * @param runOptions   a serialized {@code RunOptions} buffer, or {@code NULL}
     * @param exportDir    the SavedModel folder (a C string)
     * @param tags         {@code const char*[tagsLength]}
     * @param tagsLength   the number of tags
     * @param graph        a new, empty graph, filled in on success
     * @param metaGraphDef receives the serialized MetaGraphDef, or {@code NULL}
     * @param status       receives the outcome
     * @return the session, {@code NULL} on error
     */
    public static MemorySegment TF_LoadSessionFromSavedModel(final MemorySegment options,
        final MemorySegment runOptions, final MemorySegment exportDir, final MemorySegment tags, final int tagsLength,
        final MemorySegment graph, final MemorySegment metaGraphDef, final MemorySegment status)
    {
        try
        {
            return (MemorySegment) LOAD_SESSION_FROM_SAVED_MODEL.invokeExact(options, runOptions, exportDir, tags,
                tagsLength, graph, metaGraphDef, status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code void TF_SessionRun(TF_Session*, const TF_Buffer* run_options, const TF_Output* inputs,
     * TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs, TF_Tensor** output_values,
     * int noutputs, const TF_Operation* const* target_opers, int ntargets, TF_Buffer* run_metadata, TF_Status*)}.
     * The caller keeps the inputs; on success it owns every output tensor ({@link #TF_DeleteTensor}); on failure the
     * outputs are {@code NULL}.
     *
     * @param session      the session
     * @param runOptions   {@code NULL} or a serialized {@code RunOptions}
     * @param inputs       {@code TF_Output[ninputs]}
     * @param inputValues  {@code TF_Tensor*[ninputs]}
     * @param ninputs      number of inputs
     * @param outputs      {@code TF_Output[noutputs]}
     * @param outputValues {@code TF_Tensor*[noutputs]}, filled in
     * @param noutputs     number of outputs
     * @param targets      {@code TF_Operation*[ntargets]}, or {@code NULL}
     * @param ntargets     number of targets
     * @param runMetadata  {@code NULL} or an empty buffer
     * @param status       receives the outcome
     */
    public static void TF_SessionRun(final MemorySegment session, final MemorySegment runOptions,
        final MemorySegment inputs, final MemorySegment inputValues, final int ninputs, final MemorySegment outputs,
        final MemorySegment outputValues, final int noutputs, final MemorySegment targets, final int ntargets,
        final MemorySegment runMetadata, final MemorySegment status)
    {
        try
        {
            SESSION_RUN.invokeExact(session, runOptions, inputs, inputValues, ninputs, outputs, outputValues,
                noutputs, targets, ntargets, runMetadata, status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param session {@code void TF_CloseSession(TF_Session*, TF_Status*)}
     * @param status  receives the outcome
     */
    public static void TF_CloseSession(final MemorySegment session, final MemorySegment status)
    {
        try
        {
            CLOSE_SESSION.invokeExact(session, status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param session {@code void TF_DeleteSession(TF_Session*, TF_Status*)}: frees it even when status reports
     *                an error
     * @param status  receives the outcome
     */
    public static void TF_DeleteSession(final MemorySegment session, final MemorySegment status)
    {
        try
        {
            DELETE_SESSION.invokeExact(session, status);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * {@code TF_Tensor* TF_NewTensor(TF_DataType, const int64_t* dims, int num_dims, void* data, size_t len,
     * void (*deallocator)(void*, size_t, void*), void* deallocator_arg)}. TensorFlow uses {@code data} in place when
     * it is aligned to {@link #TF_TensorDefaultAlignment()} (or the type is {@code TF_STRING}); otherwise it copies
     * the bytes and calls the deallocator at once. Returns {@code NULL} (after calling the deallocator) when
     * {@code len} is smaller than the shape needs.
     *
     * @param dtype          element type
     * @param dims           {@code int64_t[numDims]}
     * @param numDims        rank
     * @param data           the bytes
     * @param length         their length
     * @param deallocator    function pointer ({@link #TF_DEALLOCATOR})
     * @param deallocatorArg its last argument
     * @return the tensor, or {@code NULL}
     */
    public static MemorySegment TF_NewTensor(final int dtype, final MemorySegment dims, final int numDims,
        final MemorySegment data, final long length, final MemorySegment deallocator,
        final MemorySegment deallocatorArg)
    {
        try
        {
            return (MemorySegment) NEW_TENSOR.invokeExact(dtype, dims, numDims, data, length, deallocator,
                deallocatorArg);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param dtype   element type
     * @param dims    {@code int64_t[numDims]}
     * @param numDims rank
     * @param length  bytes to allocate
     * @return {@code TF_Tensor* TF_AllocateTensor(TF_DataType, const int64_t*, int, size_t)}: memory TensorFlow owns
     */
    public static MemorySegment TF_AllocateTensor(final int dtype, final MemorySegment dims, final int numDims,
        final long length)
    {
        try
        {
            return (MemorySegment) ALLOCATE_TENSOR.invokeExact(dtype, dims, numDims, length);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @param tensor {@code void TF_DeleteTensor(TF_Tensor*)} (may call its deallocator) */
    public static void TF_DeleteTensor(final MemorySegment tensor)
    {
        try
        {
            DELETE_TENSOR.invokeExact(tensor);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @return {@code TF_DataType TF_TensorType(const TF_Tensor*)}
     */
    public static int TF_TensorType(final MemorySegment tensor)
    {
        try
        {
            return (int) TENSOR_TYPE.invokeExact(tensor);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @return {@code int TF_NumDims(const TF_Tensor*)}
     */
    public static int TF_NumDims(final MemorySegment tensor)
    {
        try
        {
            return (int) NUM_DIMS.invokeExact(tensor);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @param index  {@code 0 <= index < TF_NumDims(tensor)}
     * @return {@code int64_t TF_Dim(const TF_Tensor*, int)}
     */
    public static long TF_Dim(final MemorySegment tensor, final int index)
    {
        try
        {
            return (long) DIM.invokeExact(tensor, index);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @return {@code size_t TF_TensorByteSize(const TF_Tensor*)}
     */
    public static long TF_TensorByteSize(final MemorySegment tensor)
    {
        try
        {
            return (long) TENSOR_BYTE_SIZE.invokeExact(tensor);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @return {@code void* TF_TensorData(const TF_Tensor*)}
     */
    public static MemorySegment TF_TensorData(final MemorySegment tensor)
    {
        try
        {
            return (MemorySegment) TENSOR_DATA.invokeExact(tensor);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** @return {@code size_t TF_TensorDefaultAlignment(void)}: {@code EIGEN_MAX_ALIGN_BYTES} of the build */
    public static long TF_TensorDefaultAlignment()
    {
        try
        {
            return (long) TENSOR_DEFAULT_ALIGNMENT.invokeExact();
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param dtype an element type
     * @return {@code size_t TF_DataTypeSize(TF_DataType)}: 0 for variable-length types and unknown values
     */
    public static long TF_DataTypeSize(final int dtype)
    {
        try
        {
            return (long) DATA_TYPE_SIZE.invokeExact(dtype);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param tensor a tensor
     * @return its bytes ({@code TF_TensorData}, sized {@code TF_TensorByteSize}): valid while the tensor lives
     */
    @SuppressWarnings("restricted") // TensorFlow documents the data as TF_TensorByteSize bytes long
    public static MemorySegment tensorBytes(final MemorySegment tensor)
    {
        final long size = TF_TensorByteSize(tensor);
        return size == 0 ? MemorySegment.NULL : TF_TensorData(tensor).reinterpret(size);
    }

    /**
     * Makes the upcall stub TensorFlow calls to release a tensor's buffer.
     *
     * @param target a {@code void(MemorySegment data, long length, MemorySegment arg)} handle
     * @param arena  owns the stub; it must outlive every tensor made with it
     * @return the function pointer
     */
    static MemorySegment deallocatorStub(final MethodHandle target, final Arena arena)
    {
        return LINKER.upcallStub(target, TF_DEALLOCATOR, arena);
    }

    private static RuntimeException rethrow(final Throwable thrown)
    {
        if (thrown instanceof RuntimeException unchecked)
        {
            return unchecked;
        }
        if (thrown instanceof Error error)
        {
            throw error;
        }
        return new IllegalStateException("a TensorFlow downcall threw a checked exception, which FFM never does",
            thrown);
    }

    /** The loaded library, or why it could not be loaded, and the symbols bound so far. */
    private static final class Binding
    {

        private final SymbolLookup symbols;
        private final Path location;
        private final String failure;
        private final List<String> names = new ArrayList<>();
        private final List<String> missing = new ArrayList<>();

        private Binding(final SymbolLookup symbols, final Path location, final String failure)
        {
            this.symbols = symbols;
            this.location = location;
            this.failure = failure;
        }

        @SuppressWarnings("restricted") // loading TensorFlow's libraries is this class's job
        static Binding load(final LibraryLocation where)
        {
            final Path dir;
            try
            {
                dir = where.resolve();
            }
            catch (final TensorFlowUnavailableException e)
            {
                return new Binding(null, null, "TensorFlow's C library " + LibraryLocation.CC_LIBRARY
                    + " cannot be loaded: " + e.getMessage());
            }
            SymbolLookup last = null;
            for (final String file : LibraryLocation.loadOrder())
            {
                final Path path = dir.resolve(file);
                try
                {
                    last = SymbolLookup.libraryLookup(path, Arena.global());
                }
                catch (final IllegalArgumentException | IllegalCallerException e)
                {
                    return new Binding(null, null, "TensorFlow's C library " + LibraryLocation.CC_LIBRARY
                        + " cannot be loaded: dlopen(" + path + ") failed: " + e.getMessage() + " (taken from "
                        + where.origin() + ")");
                }
            }
            return new Binding(last, dir, null);
        }

        @SuppressWarnings("restricted") // binding TensorFlow's functions is this class's job
        MethodHandle downcall(final String name, final FunctionDescriptor descriptor, final Linker.Option... options)
        {
            names.add(name);
            final MethodType type = descriptor.toMethodType();
            if (failure != null)
            {
                return failing(type, failure);
            }
            final Optional<MemorySegment> address = symbols.find(name);
            if (address.isEmpty())
            {
                missing.add(name);
                return failing(type, LibraryLocation.CC_LIBRARY + " at " + location + " does not export " + name);
            }
            return LINKER.downcallHandle(address.get(), descriptor, options);
        }

        private static MethodHandle failing(final MethodType type, final String message)
        {
            return ThrowingHandles.of(type, () -> new TensorFlowUnavailableException(message));
        }
    }
}
