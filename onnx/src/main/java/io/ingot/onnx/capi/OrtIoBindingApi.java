package io.ingot.onnx.capi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.ingot.onnx.capi.OrtApi.C_POINTER;

/**
 * ONNX Runtime's run options and IO binding, from {@code OrtApi}: inputs and outputs bound to {@code OrtValue}s over
 * memory the caller owns ({@code BindInput}, {@code BindOutput}), or outputs left to the run
 * ({@code BindOutputToDevice}, read back with {@code GetBoundOutputValues}), and {@code RunWithBinding}.
 *
 * <p>Each method calls its C function through the {@code OrtApi} slot {@link OrtApi#downcall} resolved once, with the
 * C function's arguments: handles, C strings and out-parameters are {@link MemorySegment}s. A function that returns an
 * {@code OrtStatus*} throws {@link OrtException} (function, code, message) when it is not {@code NULL}. Thread-safe;
 * ONNX Runtime's rules apply to the objects passed.
 */
public final class OrtIoBindingApi
{
    private OrtIoBindingApi()
    {
    }

    private static final MethodHandle CREATE_RUN_OPTIONS = OrtApi.downcall("CreateRunOptions", 39,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle ADD_RUN_CONFIG_ENTRY = OrtApi.downcall("AddRunConfigEntry", 165,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle RELEASE_RUN_OPTIONS = OrtApi.downcall("ReleaseRunOptions", 97,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle CREATE_IO_BINDING = OrtApi.downcall("CreateIoBinding", 134,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle RELEASE_IO_BINDING = OrtApi.downcall("ReleaseIoBinding", 135,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle BIND_INPUT = OrtApi.downcall("BindInput", 136,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle BIND_OUTPUT = OrtApi.downcall("BindOutput", 137,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle BIND_OUTPUT_TO_DEVICE = OrtApi.downcall("BindOutputToDevice", 138,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle GET_BOUND_OUTPUT_VALUES = OrtApi.downcall("GetBoundOutputValues", 140,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle CLEAR_BOUND_INPUTS = OrtApi.downcall("ClearBoundInputs", 141,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle CLEAR_BOUND_OUTPUTS = OrtApi.downcall("ClearBoundOutputs", 142,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle RUN_WITH_BINDING = OrtApi.downcall("RunWithBinding", 133,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, C_POINTER));

    /** {@code OrtStatus* CreateRunOptions(OrtRunOptions** out)} */
    public static void CreateRunOptions(final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_RUN_OPTIONS.invokeExact(out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateRunOptions", status);
    }

    /** {@code OrtStatus* AddRunConfigEntry(OrtRunOptions*, const char* key, const char* value)} */
    public static void AddRunConfigEntry(final MemorySegment options, final MemorySegment key,
        final MemorySegment value)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) ADD_RUN_CONFIG_ENTRY.invokeExact(options, key, value);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("AddRunConfigEntry", status);
    }

    /** {@code void ReleaseRunOptions(OrtRunOptions*)} */
    public static void ReleaseRunOptions(final MemorySegment options)
    {
        try
        {
            RELEASE_RUN_OPTIONS.invokeExact(options);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* CreateIoBinding(OrtSession*, OrtIoBinding** out)} */
    public static void CreateIoBinding(final MemorySegment session, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_IO_BINDING.invokeExact(session, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateIoBinding", status);
    }

    /** {@code void ReleaseIoBinding(OrtIoBinding*)} */
    public static void ReleaseIoBinding(final MemorySegment binding)
    {
        try
        {
            RELEASE_IO_BINDING.invokeExact(binding);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* BindInput(OrtIoBinding*, const char* name, const OrtValue*)} */
    public static void BindInput(final MemorySegment binding, final MemorySegment name, final MemorySegment value)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) BIND_INPUT.invokeExact(binding, name, value);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("BindInput", status);
    }

    /** {@code OrtStatus* BindOutput(OrtIoBinding*, const char* name, const OrtValue*)} */
    public static void BindOutput(final MemorySegment binding, final MemorySegment name, final MemorySegment value)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) BIND_OUTPUT.invokeExact(binding, name, value);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("BindOutput", status);
    }

    /** {@code OrtStatus* BindOutputToDevice(OrtIoBinding*, const char* name, const OrtMemoryInfo*)} */
    public static void BindOutputToDevice(final MemorySegment binding, final MemorySegment name,
        final MemorySegment memoryInfo)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) BIND_OUTPUT_TO_DEVICE.invokeExact(binding, name, memoryInfo);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("BindOutputToDevice", status);
    }

    /**
     * {@code OrtStatus* GetBoundOutputValues(const OrtIoBinding*, OrtAllocator*, OrtValue*** output,
     *     size_t* output_count)}
     */
    public static void GetBoundOutputValues(final MemorySegment binding, final MemorySegment allocator,
        final MemorySegment out, final MemorySegment count)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_BOUND_OUTPUT_VALUES.invokeExact(binding, allocator, out, count);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetBoundOutputValues", status);
    }

    /** {@code void ClearBoundInputs(OrtIoBinding*)} */
    public static void ClearBoundInputs(final MemorySegment binding)
    {
        try
        {
            CLEAR_BOUND_INPUTS.invokeExact(binding);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code void ClearBoundOutputs(OrtIoBinding*)} */
    public static void ClearBoundOutputs(final MemorySegment binding)
    {
        try
        {
            CLEAR_BOUND_OUTPUTS.invokeExact(binding);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* RunWithBinding(OrtSession*, const OrtRunOptions*, const OrtIoBinding*)} */
    public static void RunWithBinding(final MemorySegment session, final MemorySegment runOptions,
        final MemorySegment binding)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) RUN_WITH_BINDING.invokeExact(session, runOptions, binding);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("RunWithBinding", status);
    }
}
