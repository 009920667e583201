package io.ingot.onnx.capi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.ingot.onnx.capi.OrtApi.C_INT;
import static io.ingot.onnx.capi.OrtApi.C_POINTER;
import static io.ingot.onnx.capi.OrtApi.SIZE_T;

/**
 * ONNX Runtime's environment, session options and sessions (creation and introspection), from {@code OrtApi}:
 * {@code CreateEnv}, {@code CreateSessionOptions} and its setters, {@code CreateSession},
 * {@code SessionGetInput/OutputCount/Name/TypeInfo}.
 *
 * <p>Each method calls its C function through the {@code OrtApi} slot {@link OrtApi#downcall} resolved once, with the
 * C function's arguments: handles, C strings and out-parameters are {@link MemorySegment}s. A function that returns an
 * {@code OrtStatus*} throws {@link OrtException} (function, code, message) when it is not {@code NULL}. Thread-safe;
 * ONNX Runtime's rules apply to the objects passed.
 */
public final class OrtSessionApi
{
    private OrtSessionApi()
    {
    }

    private static final MethodHandle CREATE_ENV = OrtApi.downcall("CreateEnv", 3,
        FunctionDescriptor.of(C_POINTER, C_INT, C_POINTER, C_POINTER));
    private static final MethodHandle CREATE_SESSION_OPTIONS = OrtApi.downcall("CreateSessionOptions", 10,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle RELEASE_SESSION_OPTIONS = OrtApi.downcall("ReleaseSessionOptions", 100,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle SET_SESSION_EXECUTION_MODE = OrtApi.downcall("SetSessionExecutionMode", 13,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT));
    private static final MethodHandle ENABLE_MEM_PATTERN = OrtApi.downcall("EnableMemPattern", 16,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle DISABLE_MEM_PATTERN = OrtApi.downcall("DisableMemPattern", 17,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle ENABLE_CPU_MEM_ARENA = OrtApi.downcall("EnableCpuMemArena", 18,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle DISABLE_CPU_MEM_ARENA = OrtApi.downcall("DisableCpuMemArena", 19,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle SET_SESSION_GRAPH_OPTIMIZATION_LEVEL = OrtApi.downcall(
        "SetSessionGraphOptimizationLevel", 23,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT));
    private static final MethodHandle SET_INTRA_OP_NUM_THREADS = OrtApi.downcall("SetIntraOpNumThreads", 24,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT));
    private static final MethodHandle SET_INTER_OP_NUM_THREADS = OrtApi.downcall("SetInterOpNumThreads", 25,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_INT));
    private static final MethodHandle ADD_SESSION_CONFIG_ENTRY = OrtApi.downcall("AddSessionConfigEntry", 130,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle HAS_SESSION_CONFIG_ENTRY = OrtApi.downcall("HasSessionConfigEntry", 237,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle GET_SESSION_CONFIG_ENTRY = OrtApi.downcall("GetSessionConfigEntry", 238,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle CREATE_SESSION = OrtApi.downcall("CreateSession", 7,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle CREATE_SESSION_FROM_ARRAY = OrtApi.downcall("CreateSessionFromArray", 8,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, SIZE_T, C_POINTER, C_POINTER));
    private static final MethodHandle RELEASE_SESSION = OrtApi.downcall("ReleaseSession", 95,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle SESSION_GET_INPUT_COUNT = OrtApi.downcall("SessionGetInputCount", 30,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle SESSION_GET_OUTPUT_COUNT = OrtApi.downcall("SessionGetOutputCount", 31,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle SESSION_GET_INPUT_TYPE_INFO = OrtApi.downcall("SessionGetInputTypeInfo", 33,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, C_POINTER));
    private static final MethodHandle SESSION_GET_OUTPUT_TYPE_INFO = OrtApi.downcall("SessionGetOutputTypeInfo", 34,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, C_POINTER));
    private static final MethodHandle SESSION_GET_INPUT_NAME = OrtApi.downcall("SessionGetInputName", 36,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, C_POINTER, C_POINTER));
    private static final MethodHandle SESSION_GET_OUTPUT_NAME = OrtApi.downcall("SessionGetOutputName", 37,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, C_POINTER, C_POINTER));

    /** {@code OrtStatus* CreateEnv(OrtLoggingLevel, const char* logid, OrtEnv** out)} */
    public static void CreateEnv(final int level, final MemorySegment logId, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_ENV.invokeExact(level, logId, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateEnv", status);
    }

    /** {@code OrtStatus* CreateSessionOptions(OrtSessionOptions** options)} */
    public static void CreateSessionOptions(final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_SESSION_OPTIONS.invokeExact(out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateSessionOptions", status);
    }

    /** {@code void ReleaseSessionOptions(OrtSessionOptions*)} */
    public static void ReleaseSessionOptions(final MemorySegment options)
    {
        try
        {
            RELEASE_SESSION_OPTIONS.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* SetSessionExecutionMode(OrtSessionOptions*, ExecutionMode)} */
    public static void SetSessionExecutionMode(final MemorySegment options, final int mode)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SET_SESSION_EXECUTION_MODE.invokeExact(options, mode);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SetSessionExecutionMode", status);
    }

    /** {@code OrtStatus* EnableMemPattern(OrtSessionOptions*)} */
    public static void EnableMemPattern(final MemorySegment options)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) ENABLE_MEM_PATTERN.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("EnableMemPattern", status);
    }

    /** {@code OrtStatus* DisableMemPattern(OrtSessionOptions*)} */
    public static void DisableMemPattern(final MemorySegment options)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) DISABLE_MEM_PATTERN.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("DisableMemPattern", status);
    }

    /** {@code OrtStatus* EnableCpuMemArena(OrtSessionOptions*)} */
    public static void EnableCpuMemArena(final MemorySegment options)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) ENABLE_CPU_MEM_ARENA.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("EnableCpuMemArena", status);
    }

    /** {@code OrtStatus* DisableCpuMemArena(OrtSessionOptions*)} */
    public static void DisableCpuMemArena(final MemorySegment options)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) DISABLE_CPU_MEM_ARENA.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("DisableCpuMemArena", status);
    }

    /** {@code OrtStatus* SetSessionGraphOptimizationLevel(OrtSessionOptions*, GraphOptimizationLevel)} */
    public static void SetSessionGraphOptimizationLevel(final MemorySegment options, final int level)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SET_SESSION_GRAPH_OPTIMIZATION_LEVEL.invokeExact(options, level);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SetSessionGraphOptimizationLevel", status);
    }

    /** {@code OrtStatus* SetIntraOpNumThreads(OrtSessionOptions*, int)} */
    public static void SetIntraOpNumThreads(final MemorySegment options, final int threads)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SET_INTRA_OP_NUM_THREADS.invokeExact(options, threads);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SetIntraOpNumThreads", status);
    }

    /** {@code OrtStatus* SetInterOpNumThreads(OrtSessionOptions*, int)} */
    public static void SetInterOpNumThreads(final MemorySegment options, final int threads)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SET_INTER_OP_NUM_THREADS.invokeExact(options, threads);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SetInterOpNumThreads", status);
    }

    /** {@code OrtStatus* AddSessionConfigEntry(OrtSessionOptions*, const char* key, const char* value)} */
    public static void AddSessionConfigEntry(final MemorySegment options, final MemorySegment key,
        final MemorySegment value)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) ADD_SESSION_CONFIG_ENTRY.invokeExact(options, key, value);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("AddSessionConfigEntry", status);
    }

    /** {@code OrtStatus* HasSessionConfigEntry(const OrtSessionOptions*, const char* key, int* out)} */
    public static void HasSessionConfigEntry(final MemorySegment options, final MemorySegment key,
        final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) HAS_SESSION_CONFIG_ENTRY.invokeExact(options, key, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("HasSessionConfigEntry", status);
    }

    /**
     * {@code OrtStatus* GetSessionConfigEntry(const OrtSessionOptions*, const char* key, char* value, size_t* size)}
     */
    public static void GetSessionConfigEntry(final MemorySegment options, final MemorySegment key,
        final MemorySegment value, final MemorySegment size)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_SESSION_CONFIG_ENTRY.invokeExact(options, key, value, size);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetSessionConfigEntry", status);
    }

    /**
     * {@code OrtStatus* CreateSession(const OrtEnv*, const char* model_path, const OrtSessionOptions*,
     *     OrtSession** out)}
     */
    public static void CreateSession(final MemorySegment env, final MemorySegment path, final MemorySegment options,
        final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_SESSION.invokeExact(env, path, options, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateSession", status);
    }

    /**
     * {@code OrtStatus* CreateSessionFromArray(const OrtEnv*, const void* model_data, size_t,
     *     const OrtSessionOptions*, OrtSession**)}
     */
    public static void CreateSessionFromArray(final MemorySegment env, final MemorySegment data, final long length,
        final MemorySegment options, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_SESSION_FROM_ARRAY.invokeExact(env, data, length, options, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateSessionFromArray", status);
    }

    /** {@code void ReleaseSession(OrtSession*)} */
    public static void ReleaseSession(final MemorySegment session)
    {
        try
        {
            RELEASE_SESSION.invokeExact(session);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* SessionGetInputCount(const OrtSession*, size_t* out)} */
    public static void SessionGetInputCount(final MemorySegment session, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_INPUT_COUNT.invokeExact(session, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetInputCount", status);
    }

    /** {@code OrtStatus* SessionGetOutputCount(const OrtSession*, size_t* out)} */
    public static void SessionGetOutputCount(final MemorySegment session, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_OUTPUT_COUNT.invokeExact(session, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetOutputCount", status);
    }

    /** {@code OrtStatus* SessionGetInputTypeInfo(const OrtSession*, size_t index, OrtTypeInfo** out)} */
    public static void SessionGetInputTypeInfo(final MemorySegment session, final long index, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_INPUT_TYPE_INFO.invokeExact(session, index, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetInputTypeInfo", status);
    }

    /** {@code OrtStatus* SessionGetOutputTypeInfo(const OrtSession*, size_t index, OrtTypeInfo** out)} */
    public static void SessionGetOutputTypeInfo(final MemorySegment session, final long index, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_OUTPUT_TYPE_INFO.invokeExact(session, index, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetOutputTypeInfo", status);
    }

    /** {@code OrtStatus* SessionGetInputName(const OrtSession*, size_t index, OrtAllocator*, char** value)} */
    public static void SessionGetInputName(final MemorySegment session, final long index, final MemorySegment allocator,
        final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_INPUT_NAME.invokeExact(session, index, allocator, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetInputName", status);
    }

    /** {@code OrtStatus* SessionGetOutputName(const OrtSession*, size_t index, OrtAllocator*, char** value)} */
    public static void SessionGetOutputName(final MemorySegment session, final long index,
        final MemorySegment allocator, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) SESSION_GET_OUTPUT_NAME.invokeExact(session, index, allocator, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("SessionGetOutputName", status);
    }
}
