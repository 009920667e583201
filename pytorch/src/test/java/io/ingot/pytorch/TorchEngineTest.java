package io.ingot.pytorch;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.pytorch.script.ScriptModule;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TorchScript models written by the module's writer, run by libtorch through the engine, with known answers. */
class TorchEngineTest
{
    @TempDir
    Path directory;

    @Test
    void affineModelComputesXTimesTwoPlusOneOverABatch() throws Exception
    {
        final String config = """
            name: "affine" backend: "pytorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """;
        final float[] out = runFloats(TorchModels.affine(), config, 3, "INPUT__0",
            new float[] {0, 1, 2, 3, -4, 0.5f}, "OUTPUT__0");
        assertArrayEquals(new float[] {1, 3, 5, 7, -7, 2}, out);
    }

    @Test
    void addSubBindsInputsByIndexAndReturnsBothTupleMembers() throws Exception
    {
        final String config = """
            name: "add_sub" platform: "pytorch_libtorch" max_batch_size: 8
            input { name: "INPUT__1" data_type: TYPE_INT32 dims: [4] }
            input { name: "INPUT__0" data_type: TYPE_INT32 dims: [4] }
            output { name: "OUTPUT__1" data_type: TYPE_INT32 dims: [4] }
            output { name: "OUTPUT__0" data_type: TYPE_INT32 dims: [4] }
            """;
        try (TorchModels.Loaded model = TorchModels.Loaded.of(TorchModels.addSub("a", "b"), config, directory, 1))
        {
            final FakeBatch batch = model.batch();
            // INPUT__0 is forward's first argument (a) wherever the configuration lists it.
            batch.input("INPUT__1", DataType.INT32, new long[] {1, 4}, new int[] {1, 2, 3, 4});
            batch.input("INPUT__0", DataType.INT32, new long[] {1, 4}, new int[] {10, 20, 30, 40});
            model.run();
            assertArrayEquals(new int[] {11, 22, 33, 44}, batch.ints("OUTPUT__0"));
            assertArrayEquals(new int[] {9, 18, 27, 36}, batch.ints("OUTPUT__1"));
        }
    }

    @Test
    void namesEqualToForwardArgumentsBindByName() throws Exception
    {
        final String config = """
            name: "named" backend: "pytorch"
            input { name: "second" data_type: TYPE_FP32 dims: [2] }
            input { name: "first" data_type: TYPE_FP32 dims: [2] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [2] }
            output { name: "DIFFERENCE" data_type: TYPE_FP32 dims: [2] }
            """;
        try (TorchModels.Loaded model = TorchModels.Loaded.of(TorchModels.addSub("first", "second"), config,
            directory, 1))
        {
            final FakeBatch batch = model.batch();
            assertEquals(IoPlan.Convention.FORWARD_ARGUMENT, ((TorchBackend)model.backend()).plan().convention());
            batch.input("second", DataType.FP32, new long[] {2}, new float[] {1, 2});
            batch.input("first", DataType.FP32, new long[] {2}, new float[] {10, 20});
            model.run();
            // Outputs without __<index> follow configuration order: SUM is element 0, DIFFERENCE element 1.
            assertArrayEquals(new float[] {11, 22}, batch.floats("SUM"));
            assertArrayEquals(new float[] {9, 18}, batch.floats("DIFFERENCE"));
        }
    }

    @Test
    void weightsStoredInTheArchiveAreUsed() throws Exception
    {
        final String config = """
            name: "linear" backend: "pytorch" max_batch_size: 2
            input { name: "x" data_type: TYPE_FP32 dims: [2] }
            output { name: "y" data_type: TYPE_FP32 dims: [3] }
            """;
        final float[] out = runFloats(TorchModels.linear(), config, 2, "x", new float[] {1, 1, 2, -1}, "y");
        // weight rows (1,2) (3,4) (5,6), bias (0.5, -0.5, 10)
        assertArrayEquals(new float[] {3.5f, 6.5f, 21, 0.5f, 1.5f, 14}, out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"BOOL", "UINT8", "INT8", "INT32", "INT64", "FP16", "FP32", "FP64"})
    void everyDatatypeLibtorchAndTritonShareRoundTrips(final String typeName) throws Exception
    {
        final DataType type = DataType.valueOf(typeName);
        final boolean bool = type == DataType.BOOL;
        final ScriptModule module = ScriptModule.builder("Twice").argument("INPUT__0", "Tensor")
            .body(bool ? "return torch.logical_not(INPUT__0)" : "return torch.add(INPUT__0, INPUT__0)").build();
        final String tritonType = "TYPE_" + typeName;
        final String config = "name: 'twice' backend: 'pytorch' max_batch_size: 2"
            + " input { name: 'INPUT__0' data_type: " + tritonType + " dims: [3] }"
            + " output { name: 'OUTPUT__0' data_type: " + tritonType + " dims: [3] }";
        final byte[] in = switch (type)
        {
            case BOOL -> new byte[] {1, 0, 1, 0, 0, 1};
            case UINT8 -> new byte[] {1, 2, (byte)200, 0, 7, 127};
            case INT8 -> new byte[] {1, -2, 60, 0, -7, 3};
            case INT32 -> le(4, 1, -2, 1_000_000, 0, -7, 3);
            case INT64 -> le(8, 1, -2, 1L << 40, 0, -7, 3);
            case FP16 -> halfs(1.5f, -2, 1000, 0, 0.25f, 3);
            case FP32 -> TorchModels.littleEndianFloats(1.5f, -2, 1e6f, 0, 0.25f, 3);
            case FP64 -> doubles(1.5, -2, 1e300, 0, 0.25, 3);
            default -> throw new AssertionError(type);
        };
        try (TorchModels.Loaded model = TorchModels.Loaded.of(module, config, directory, 2))
        {
            final FakeBatch batch = model.batch();
            batch.input("INPUT__0", type, new long[] {2, 3}, in);
            model.run();
            final byte[] out = batch.output("OUTPUT__0").toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(expectedTwice(type, in), out, typeName);
            assertArrayEquals(new long[] {2, 3}, batch.outputShape("OUTPUT__0"));
        }
    }

    @Test
    void stringsGoInAsAListOfStrAndComeBackAsBytes() throws Exception
    {
        final ScriptModule module = ScriptModule.builder("Upper").argument("INPUT__0", "List[str]")
            .returns("List[str]")
            .body("out: List[str] = []", "for s in INPUT__0:", "  out.append(s.upper())", "return out").build();
        final String config = """
            name: "upper" backend: "pytorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_STRING dims: [1] reshape { shape: [] } }
            output { name: "OUTPUT__0" data_type: TYPE_STRING dims: [1] reshape { shape: [] } }
            """;
        try (TorchModels.Loaded model = TorchModels.Loaded.of(module, config, directory, 3))
        {
            final FakeBatch batch = model.batch();
            batch.input("INPUT__0", DataType.BYTES, new long[] {3, 1}, encode("triton", "", "ingot é"));
            model.run();
            // TorchScript's str.upper() changes ASCII letters only; the UTF-8 bytes of é pass through both ways.
            assertEquals(List.of("TRITON", "", "INGOT é"), decode(batch.output("OUTPUT__0")));
            assertArrayEquals(new long[] {3, 1}, batch.outputShape("OUTPUT__0"));
        }
    }

    @Test
    void aSingleDictArgumentTakesEveryInputByName() throws Exception
    {
        final ScriptModule module = ScriptModule.builder("DictSub").argument("inputs", "Dict[str, Tensor]")
            .body("return torch.sub(inputs[\"minuend\"], inputs[\"subtrahend\"])").build();
        for (final String inferenceMode : new String[] {"true", "false"})
        {
            final String config = """
                name: "dict_sub" backend: "pytorch"
                input { name: "subtrahend" data_type: TYPE_FP32 dims: [2] }
                input { name: "minuend" data_type: TYPE_FP32 dims: [2] }
                output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
                parameters { key: "INFERENCE_MODE" value { string_value: "%s" } }
                """.formatted(inferenceMode);
            try (TorchModels.Loaded model = TorchModels.Loaded.of(module, config, directory.resolve(inferenceMode), 1))
            {
                final FakeBatch batch = model.batch();
                assertEquals(IoPlan.Convention.DICT, ((TorchBackend)model.backend()).plan().convention());
                batch.input("subtrahend", DataType.FP32, new long[] {2}, new float[] {1, 2});
                batch.input("minuend", DataType.FP32, new long[] {2}, new float[] {10, 20});
                model.run();
                assertArrayEquals(new float[] {9, 18}, batch.floats("OUTPUT__0"), "INFERENCE_MODE " + inferenceMode);
            }
        }
    }

    @Test
    void withoutInferenceModeAndWithoutOptimizedExecutionTheAnswerIsTheSame() throws Exception
    {
        final String config = """
            name: "affine" backend: "pytorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            parameters { key: "INFERENCE_MODE" value { string_value: "off" } }
            parameters { key: "DISABLE_OPTIMIZED_EXECUTION" value { string_value: "TRUE" } }
            """;
        final float[] out = runFloats(TorchModels.affine(), config, 2, "INPUT__0", new float[] {0, 1, 2, 3},
            "OUTPUT__0");
        assertArrayEquals(new float[] {1, 3, 5, 7}, out);
    }

    @Test
    void theModelReadsAndWritesTheBatchMemoryItself() throws Exception
    {
        // An in-place update inside forward lands in the batch's own memory: the tensor is that memory, not a copy.
        final ScriptModule module = ScriptModule.builder("InPlace").argument("INPUT__0", "Tensor")
            .body("_0 = torch.add_(INPUT__0, 100.0)", "return torch.mul(_0, 2.0)").build();
        final String config = """
            name: "in_place" backend: "pytorch" max_batch_size: 2
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """;
        try (TorchModels.Loaded model = TorchModels.Loaded.of(module, config, directory, 1))
        {
            final FakeBatch batch = model.batch();
            final MemorySegment staging = java.lang.foreign.Arena.ofAuto().allocate(8, 64);
            staging.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 1);
            staging.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 2);
            batch.input("INPUT__0", DataType.FP32, new long[] {1, 2}, staging);
            model.run();
            assertArrayEquals(new float[] {101, 102}, staging.toArray(ValueLayout.JAVA_FLOAT));
            assertArrayEquals(new float[] {202, 204}, batch.floats("OUTPUT__0"));
        }
    }

    @Test
    void anInputTensorIsTheBatchMemoryAtTheSameAddress() throws Exception
    {
        try (var scope = LibTorch.newManager(); java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined())
        {
            final MemorySegment staging = arena.allocate(6 * Float.BYTES, 64);
            final var tensor = TorchEngine.view(scope, staging.asSlice(Float.BYTES), new long[] {5}, DataType.FP32);
            final MemorySegment seen = MemorySegment.ofBuffer(tensor.toByteBuffer(true));
            assertEquals(staging.address() + Float.BYTES, seen.address(), "libtorch's data_ptr is the staging memory");
            assertEquals(5 * Float.BYTES, seen.byteSize());
        }
    }

    @Test
    void anOutputOfAnotherDatatypeFailsTheBatchWithTritonsMessage()
    {
        assertEquals("model 'affine': configuration expects datatype TYPE_FP64 for output 'OUTPUT__0', model provides"
            + " TYPE_FP32", affineFailure("TYPE_FP64", "[2]"));
    }

    @Test
    void anOutputOfAnotherShapeFailsTheBatchNamingBoth()
    {
        assertEquals("model 'affine': output 'OUTPUT__0' has shape [1,2], but the configuration's dims are [3] after"
            + " the batch dimension", affineFailure("TYPE_FP32", "[3]"));
    }

    /** Runs the affine model with its output configured as given; returns the batch's error. */
    private String affineFailure(final String outputType, final String outputDims)
    {
        final String config = "name: 'affine' backend: 'pytorch' max_batch_size: 4"
            + " input { name: 'INPUT__0' data_type: TYPE_FP32 dims: [2] }"
            + " output { name: 'OUTPUT__0' data_type: " + outputType + " dims: " + outputDims + " }";
        return assertThrows(IllegalStateException.class, () -> runFloats(TorchModels.affine(), config, 1,
            "INPUT__0", new float[] {0, 1}, "OUTPUT__0")).getMessage();
    }

    @Test
    void aScalarOutputIsRefusedAsTritonRefusesIt() throws Exception
    {
        final ScriptModule module = ScriptModule.builder("Total").argument("INPUT__0", "Tensor")
            .body("return torch.sum(INPUT__0)").build();
        final String config = """
            name: "total" backend: "pytorch"
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """;
        final IllegalStateException error = assertThrows(IllegalStateException.class,
            () -> runFloats(module, config, 1, "INPUT__0", new float[] {1, 2}, "OUTPUT__0"));
        assertEquals("model 'total': output 'OUTPUT__0' is a scalar which is not supported.", error.getMessage());
    }

    @Test
    void aLibtorchErrorFailsOnlyThatBatch() throws Exception
    {
        final String config = """
            name: "linear" backend: "pytorch" max_batch_size: 2
            input { name: "x" data_type: TYPE_FP32 dims: [-1] }
            output { name: "y" data_type: TYPE_FP32 dims: [3] }
            """;
        final Path file = TorchModels.write(TorchModels.linear(), directory);
        final ModelContext context = TorchModels.context(config, file);
        try (Backend backend = new PyTorchBackendFactory().load(context);
            Engine engine = TorchModels.engine(backend, context, 0))
        {
            try (FakeBatch wrong = new FakeBatch(context.config(), 1))
            {
                wrong.input("x", DataType.FP32, new long[] {1, 5}, new float[5]);
                final RuntimeException error = assertThrows(RuntimeException.class, () -> engine.execute(wrong));
                assertTrue(error.getMessage().contains("mat1 and mat2 shapes cannot be multiplied"),
                    error.getMessage());
            }
            try (FakeBatch right = new FakeBatch(context.config(), 1))
            {
                right.input("x", DataType.FP32, new long[] {1, 2}, new float[] {1, 1});
                engine.execute(right);
                assertArrayEquals(new float[] {3.5f, 6.5f, 21}, right.floats("y"));
            }
        }
    }

    /** Runs a one-input, one-output FP32 model on one batch and returns the output. */
    private float[] runFloats(final ScriptModule module, final String config, final int batchSize,
        final String input, final float[] values, final String output) throws Exception
    {
        try (TorchModels.Loaded model = TorchModels.Loaded.of(module, config, directory, batchSize))
        {
            final FakeBatch batch = model.batch();
            final long[] shape = batch.config().getMaxBatchSize() > 0
                ? new long[] {batchSize, values.length / batchSize} : new long[] {values.length};
            batch.input(input, DataType.FP32, shape, values);
            model.run();
            return batch.floats(output);
        }
    }

    private static byte[] expectedTwice(final DataType type, final byte[] in)
    {
        final java.nio.ByteBuffer source = java.nio.ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        final java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(in.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < in.length / Math.max(1, type.byteSize()); i++)
        {
            switch (type)
            {
                case BOOL -> out.put((byte)(source.get() == 0 ? 1 : 0));
                case UINT8, INT8 -> out.put((byte)(source.get() * 2));
                case INT32 -> out.putInt(source.getInt() * 2);
                case INT64 -> out.putLong(source.getLong() * 2);
                case FP16 -> out.putShort(Float.floatToFloat16(Float.float16ToFloat(source.getShort()) * 2));
                case FP32 -> out.putFloat(source.getFloat() * 2);
                case FP64 -> out.putDouble(source.getDouble() * 2);
                default -> throw new AssertionError(type);
            }
        }
        return out.array();
    }

    private static byte[] le(final int width, final long... values)
    {
        final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(values.length * width)
            .order(ByteOrder.LITTLE_ENDIAN);
        for (final long value : values)
        {
            if (width == 4)
            {
                bytes.putInt((int)value);
            }
            else
            {
                bytes.putLong(value);
            }
        }
        return bytes.array();
    }

    private static byte[] halfs(final float... values)
    {
        final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(values.length * 2)
            .order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            bytes.putShort(Float.floatToFloat16(value));
        }
        return bytes.array();
    }

    private static byte[] doubles(final double... values)
    {
        final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(values.length * 8)
            .order(ByteOrder.LITTLE_ENDIAN);
        for (final double value : values)
        {
            bytes.putDouble(value);
        }
        return bytes.array();
    }

    static byte[] encode(final String... strings)
    {
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (final String s : strings)
        {
            final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(java.nio.ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length)
                .array());
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    static List<String> decode(final MemorySegment data)
    {
        final List<String> strings = new ArrayList<>();
        long offset = 0;
        while (offset < data.byteSize())
        {
            final int length = data.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), offset);
            offset += 4;
            strings.add(new String(data.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.UTF_8));
            offset += length;
        }
        return strings;
    }
}
