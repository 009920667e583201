package io.ingot.onnx.capi;

import io.ingot.onnx.writer.Dim;
import io.ingot.onnx.writer.OnnxModelBuilder;
import io.ingot.onnx.writer.proto.TensorProto;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bound {@code OrtApi} slot against the real library of the Maven artifact, by behaviour: each function is
 * called with arguments whose result is known, so a binding at the wrong slot (another function, other arguments)
 * fails or gives the wrong answer. Runs wherever the library loads, CI included; {@link OrtApiHeaderTest} compares
 * the slots with the header itself where the header is at hand. The test ends by checking that it called every
 * bound function.
 */
class OrtApiTest
{
    private final Set<String> called = new TreeSet<>();

    @BeforeAll
    static void libraryLoads()
    {
        assertTrue(OrtApi.isAvailable(), () -> OrtApi.unavailableReason().orElse(""));
    }

    @Test
    void everyBoundFunctionDoesWhatItsSlotPromises() throws Exception
    {
        assertEquals(OrtLibraryFile.VERSION, OrtApi.versionString().orElseThrow());
        statuses();
        final OrtEnv env = OrtEnv.get();
        called.addAll(List.of("CreateEnv", "CreateCpuMemoryInfo", "GetAllocatorWithDefaultOptions"));
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            OrtValueApi.MemoryInfoGetName(env.cpuMemory(), out);
            called.add("MemoryInfoGetName");
            assertEquals("Cpu", OrtApi.string(out.get(ValueLayout.ADDRESS, 0)));
            OrtValueApi.CreateCpuMemoryInfo(OrtApi.OrtDeviceAllocator, OrtApi.OrtMemTypeDefault, out);
            OrtValueApi.ReleaseMemoryInfo(out.get(ValueLayout.ADDRESS, 0));
            called.add("ReleaseMemoryInfo");
            sessionOptions();
            tensors(env, arena);
            sessionAndRun(env, arena);
        }
        final Set<String> bound = new TreeSet<>(OrtApi.boundFunctions().keySet());
        bound.removeAll(called);
        assertEquals(Set.of(), bound, "bound functions this test did not call");
    }

    private void statuses()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment status = OrtApi.CreateStatus(OrtApi.ORT_INVALID_GRAPH, arena.allocateFrom("no such"));
            final OrtException failure = assertThrows(OrtException.class, () -> OrtApi.check("Probe", status));
            called.addAll(List.of("CreateStatus", "GetErrorCode", "GetErrorMessage", "ReleaseStatus"));
            assertEquals(OrtApi.ORT_INVALID_GRAPH, failure.code());
            assertEquals("no such", failure.ortMessage());
            assertEquals("ORT_INVALID_GRAPH from Probe: no such", failure.getMessage());
        }
    }

    private void sessionOptions()
    {
        try (OrtSessionOptions options = new OrtSessionOptions())
        {
            called.add("CreateSessionOptions");
            options.configEntry("session.use_device_allocator_for_initializers", "1");
            called.addAll(List.of("AddSessionConfigEntry"));
            assertEquals("1", options.configEntry("session.use_device_allocator_for_initializers"));
            assertNull(options.configEntry("session.no_such_key"));
            called.addAll(List.of("HasSessionConfigEntry", "GetSessionConfigEntry"));
            // Setters: valid values are taken; ONNX Runtime refuses an unknown execution mode and optimization level.
            options.intraOpThreads(1).interOpThreads(1).executionMode(OrtApi.ORT_PARALLEL)
                .graphOptimization(OrtApi.ORT_ENABLE_EXTENDED).cpuMemoryArena(false).cpuMemoryArena(true)
                .memoryPattern(false).memoryPattern(true);
            called.addAll(List.of("SetIntraOpNumThreads", "SetInterOpNumThreads", "SetSessionExecutionMode",
                "SetSessionGraphOptimizationLevel", "EnableCpuMemArena", "DisableCpuMemArena", "EnableMemPattern",
                "DisableMemPattern"));
            final OrtException mode = assertThrows(OrtException.class, () -> options.executionMode(7));
            assertEquals(OrtApi.ORT_INVALID_ARGUMENT, mode.code(), mode.getMessage());
            final OrtException level = assertThrows(OrtException.class, () -> options.graphOptimization(7));
            assertEquals(OrtApi.ORT_INVALID_ARGUMENT, level.code(), level.getMessage());
        }
        called.add("ReleaseSessionOptions");
    }

    private void tensors(final OrtEnv env, final Arena arena)
    {
        final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        final MemorySegment number = arena.allocate(ValueLayout.JAVA_LONG);
        final MemorySegment shape = arena.allocateFrom(ValueLayout.JAVA_LONG, 2, 3);
        final MemorySegment data = arena.allocate(ValueLayout.JAVA_SHORT, 6);
        OrtValueApi.CreateTensorWithDataAsOrtValue(env.cpuMemory(), data, data.byteSize(), shape, 2,
            OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16, out);
        final MemorySegment value = out.get(ValueLayout.ADDRESS, 0);
        OrtValueApi.IsTensor(value, number);
        assertEquals(1, number.get(ValueLayout.JAVA_INT, 0));
        OrtValueApi.GetValueType(value, number);
        assertEquals(OrtApi.ONNX_TYPE_TENSOR, number.get(ValueLayout.JAVA_INT, 0));
        OrtValueApi.GetTensorMutableData(value, out);
        assertEquals(data.address(), out.get(ValueLayout.ADDRESS, 0).address());
        OrtValueApi.GetTensorTypeAndShape(value, out);
        final MemorySegment info = out.get(ValueLayout.ADDRESS, 0);
        OrtValueApi.GetTensorShapeElementCount(info, number);
        assertEquals(6, number.get(ValueLayout.JAVA_LONG, 0));
        final OrtTypes.Shape described = OrtTypes.shape(info, true);
        assertEquals(OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16, described.elementType());
        assertArrayEquals(new long[] {2, 3}, described.dims());
        assertArrayEquals(new String[] {"", ""}, described.names());
        OrtValueApi.ReleaseTensorTypeAndShapeInfo(info);
        OrtValueApi.ReleaseValue(value);
        called.addAll(List.of("CreateTensorWithDataAsOrtValue", "IsTensor", "GetValueType", "GetTensorMutableData",
            "GetTensorTypeAndShape", "GetTensorShapeElementCount", "GetTensorElementType", "GetDimensionsCount",
            "GetDimensions", "GetSymbolicDimensions", "ReleaseTensorTypeAndShapeInfo", "ReleaseValue"));

        // A string tensor: element by element in, whole length and element by element out.
        OrtValueApi.CreateTensorAsOrtValue(env.allocator(), shape, 1, OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING, out);
        final MemorySegment strings = out.get(ValueLayout.ADDRESS, 0);
        OrtValueApi.GetResizedStringTensorElementBuffer(strings, 1, 3, out);
        out.get(ValueLayout.ADDRESS, 0).reinterpret(3).copyFrom(MemorySegment.ofArray(new byte[] {0, 'a', -1}));
        OrtValueApi.GetStringTensorDataLength(strings, number);
        assertEquals(3, number.get(ValueLayout.JAVA_LONG, 0));
        OrtValueApi.GetStringTensorElementLength(strings, 1, number);
        assertEquals(3, number.get(ValueLayout.JAVA_LONG, 0));
        final MemorySegment element = arena.allocate(3);
        OrtValueApi.GetStringTensorElement(strings, 3, 1, element);
        assertArrayEquals(new byte[] {0, 'a', -1}, element.toArray(ValueLayout.JAVA_BYTE));
        OrtValueApi.ReleaseValue(strings);
        called.addAll(List.of("CreateTensorAsOrtValue", "GetResizedStringTensorElementBuffer",
            "GetStringTensorDataLength", "GetStringTensorElementLength", "GetStringTensorElement"));
    }

    private void sessionAndRun(final OrtEnv env, final Arena arena) throws Exception
    {
        final OnnxModelBuilder builder = new OnnxModelBuilder("probe");
        builder.input("X", TensorProto.DataType.UINT64, Dim.named("batch"), Dim.of(2));
        builder.input("K", TensorProto.DataType.UINT64, Dim.named("batch"), Dim.of(2));
        builder.output("Y", TensorProto.DataType.UINT64, Dim.named("batch"), Dim.of(2));
        builder.output("Z", TensorProto.DataType.UINT64, Dim.named("batch"), Dim.of(2));
        builder.node("Add", List.of("X", "K"), "Y");
        builder.node("Identity", List.of("X"), "Z");
        final byte[] model = builder.build().toByteArray();
        assertThrows(OrtException.class, () -> OrtSession.open(Path.of("/nonexistent/model.onnx"),
            new OrtSessionOptions()));
        called.add("CreateSession");
        try (OrtSessionOptions options = new OrtSessionOptions(); OrtSession session = OrtSession.fromBytes(model,
            options))
        {
            called.addAll(List.of("CreateSessionFromArray", "SessionGetInputCount", "SessionGetOutputCount",
                "SessionGetInputName", "SessionGetOutputName", "AllocatorFree", "SessionGetInputTypeInfo",
                "SessionGetOutputTypeInfo", "GetOnnxTypeFromTypeInfo", "CastTypeInfoToTensorInfo",
                "ReleaseTypeInfo"));
            assertEquals(List.of("X", "K"), session.inputs().stream().map(OrtTensorInfo::name).toList());
            assertEquals(List.of("Y", "Z"), session.outputs().stream().map(OrtTensorInfo::name).toList());
            final OrtTensorInfo x = session.inputs().getFirst();
            assertEquals(OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64, x.elementType());
            assertArrayEquals(new long[] {-1, 2}, x.dims());
            assertArrayEquals(new String[] {"batch", ""}, x.dimNames());
            run(env, arena, session);
        }
        called.add("ReleaseSession");
    }

    /** Y bound to memory of ours (written in place), Z left to the run and read back: the IO binding functions. */
    private void run(final OrtEnv env, final Arena arena, final OrtSession session)
    {
        final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        final MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
        final MemorySegment shape = arena.allocateFrom(ValueLayout.JAVA_LONG, 1, 2);
        final MemorySegment x = arena.allocateFrom(ValueLayout.JAVA_LONG, -1L, 7);
        final MemorySegment k = arena.allocateFrom(ValueLayout.JAVA_LONG, 2, 3);
        final MemorySegment y = arena.allocate(ValueLayout.JAVA_LONG, 2);
        OrtIoBindingApi.CreateIoBinding(session.handle(), out);
        final MemorySegment binding = out.get(ValueLayout.ADDRESS, 0);
        OrtIoBindingApi.CreateRunOptions(out);
        final MemorySegment runOptions = out.get(ValueLayout.ADDRESS, 0);
        OrtIoBindingApi.AddRunConfigEntry(runOptions, arena.allocateFrom("memory.enable_memory_arena_shrinkage"),
            arena.allocateFrom("cpu:0"));
        final MemorySegment[] values = new MemorySegment[3];
        int v = 0;
        for (final MemorySegment data : new MemorySegment[] {x, k, y})
        {
            OrtValueApi.CreateTensorWithDataAsOrtValue(env.cpuMemory(), data, data.byteSize(), shape, 2,
                OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64, out);
            values[v++] = out.get(ValueLayout.ADDRESS, 0);
        }
        OrtIoBindingApi.BindInput(binding, arena.allocateFrom("X"), values[0]);
        OrtIoBindingApi.BindInput(binding, arena.allocateFrom("K"), values[1]);
        OrtIoBindingApi.BindOutput(binding, arena.allocateFrom("Y"), values[2]);
        OrtIoBindingApi.BindOutputToDevice(binding, arena.allocateFrom("Z"), env.cpuMemory());
        OrtIoBindingApi.RunWithBinding(session.handle(), runOptions, binding);
        assertArrayEquals(new long[] {1, 10}, y.toArray(ValueLayout.JAVA_LONG), "UINT64 wraps: 2^64-1 + 2 = 1");
        OrtIoBindingApi.GetBoundOutputValues(binding, env.allocator(), out, count);
        assertEquals(2, count.get(ValueLayout.JAVA_LONG, 0));
        @SuppressWarnings("restricted")
        final MemorySegment array = out.get(ValueLayout.ADDRESS, 0).reinterpret(16);
        final MemorySegment z = array.getAtIndex(ValueLayout.ADDRESS, 1);
        OrtValueApi.GetTensorMutableData(z, out);
        @SuppressWarnings("restricted")
        final MemorySegment zData = out.get(ValueLayout.ADDRESS, 0).reinterpret(16);
        assertArrayEquals(new long[] {-1L, 7}, zData.toArray(ValueLayout.JAVA_LONG));
        OrtValueApi.ReleaseValue(array.getAtIndex(ValueLayout.ADDRESS, 0));
        OrtValueApi.ReleaseValue(z);
        OrtValueApi.AllocatorFree(env.allocator(), array);
        OrtIoBindingApi.ClearBoundInputs(binding);
        OrtIoBindingApi.ClearBoundOutputs(binding);
        // Cleared: a run now has no inputs bound, and ONNX Runtime says so.
        assertThrows(OrtException.class, () -> OrtIoBindingApi.RunWithBinding(session.handle(), runOptions,
            binding));
        for (final MemorySegment value : values)
        {
            OrtValueApi.ReleaseValue(value);
        }
        OrtIoBindingApi.ReleaseRunOptions(runOptions);
        OrtIoBindingApi.ReleaseIoBinding(binding);
        called.addAll(List.of("CreateIoBinding", "CreateRunOptions", "AddRunConfigEntry", "BindInput", "BindOutput",
            "BindOutputToDevice", "RunWithBinding", "GetBoundOutputValues", "ClearBoundInputs", "ClearBoundOutputs",
            "ReleaseRunOptions", "ReleaseIoBinding"));
    }
}
