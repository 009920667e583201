package io.ingot.onnx;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.onnx.capi.OrtException;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OnnxEngineTest
{
    @TempDir
    Path directory;

    private final Arena arena = Arena.ofConfined();
    private final OnnxBackendFactory factory = new OnnxBackendFactory();

    @AfterEach
    void closeArena()
    {
        arena.close();
    }

    private static final ModelConfig ADD_SUB = TestModels.config("""
        name: "add_sub" backend: "onnxruntime" max_batch_size: 8
        input { name: "A" data_type: TYPE_FP32 dims: [4] }
        input { name: "B" data_type: TYPE_FP32 dims: [4] }
        output { name: "SUM" data_type: TYPE_FP32 dims: [4] }
        output { name: "DIFF" data_type: TYPE_FP32 dims: [4] }
        """);

    private Engine engine(final ModelConfig config, final Path file) throws Exception
    {
        final ModelContext context = TestModels.context(config, file);
        final Backend backend = factory.load(context);
        return new ClosingEngine(backend.createEngine(TestModels.cpuInstance(context, 0)), backend);
    }

    @Test
    void addsAndSubtractsABatchOfTwoRowsIntoAllocatedMemory() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, OnnxModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, 2, arena).requestOutputs("SUM", "DIFF")
                .input("A", DataType.FP32, new long[] {2, 4}, new float[] {1, 2, 3, 4, 5, 6, 7, 8})
                .input("B", DataType.FP32, new long[] {2, 4}, new float[] {10, 20, 30, 40, 50, 60, 70, 80});
            engine.execute(batch);

            assertArrayEquals(new long[] {2, 4}, batch.allocation("SUM").shape());
            assertArrayEquals(new float[] {11, 22, 33, 44, 55, 66, 77, 88}, batch.floats("SUM"));
            assertArrayEquals(new float[] {-9, -18, -27, -36, -45, -54, -63, -72}, batch.floats("DIFF"));
            assertEquals(2, batch.allocations().size(), "each output is allocated exactly once");
        }
    }

    @Test
    void producesOnlyTheRequestedOutputs() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, OnnxModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, 1, arena).requestOutputs("DIFF")
                .input("A", DataType.FP32, new long[] {1, 4}, new float[] {1, 1, 1, 1})
                .input("B", DataType.FP32, new long[] {1, 4}, new float[] {2, 2, 2, 2});
            engine.execute(batch);

            assertNull(batch.allocation("SUM"));
            assertArrayEquals(new float[] {-1, -1, -1, -1}, batch.floats("DIFF"));
        }
    }

    @Test
    void reusesItsTensorsAcrossBatchesOfDifferentSizes() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, OnnxModels.addSub(directory)))
        {
            for (int size = 1; size <= 3; size++)
            {
                final float[] a = new float[size * 4];
                final float[] b = new float[size * 4];
                final float[] sum = new float[size * 4];
                for (int i = 0; i < a.length; i++)
                {
                    a[i] = i * size;
                    b[i] = 0.5f * i;
                    sum[i] = a[i] + b[i];
                }
                final FakeBatch batch = new FakeBatch(ADD_SUB, size, arena).requestOutputs("SUM")
                    .input("A", DataType.FP32, new long[] {size, 4}, a)
                    .input("B", DataType.FP32, new long[] {size, 4}, b);
                engine.execute(batch);
                assertArrayEquals(sum, batch.floats("SUM"), "batch of " + size);
            }
        }
    }

    @Test
    void writesIntoHeapOutputMemoryThroughACopy() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, OnnxModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, 1, arena).requestOutputs("SUM").heapOutputs()
                .input("A", DataType.FP32, new long[] {1, 4}, new float[] {1, 2, 3, 4})
                .input("B", DataType.FP32, new long[] {1, 4}, new float[] {1, 1, 1, 1});
            engine.execute(batch);

            assertFalse(batch.allocation("SUM").memory().isNative());
            assertArrayEquals(new float[] {2, 3, 4, 5}, batch.floats("SUM"));
        }
    }

    @Test
    void takesASymbolicOutputDimensionFromTheInputWithTheSameSymbol() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "doubler" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [-1] }
            output { name: "Y" data_type: TYPE_FP32 dims: [-1] }
            """);
        try (Engine engine = engine(config, OnnxModels.doubler(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, 2, arena).requestOutputs("Y")
                .input("X", DataType.FP32, new long[] {2, 3}, new float[] {1, 2, 3, 4, 5, 6});
            engine.execute(batch);

            assertArrayEquals(new long[] {2, 3}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, batch.floats("Y"));
        }
    }

    @Test
    void copiesAnOutputWhoseShapeOnlyTheRunKnows() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "concat" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [-1] }
            output { name: "Y" data_type: TYPE_FP32 dims: [-1] }
            """);
        try (Engine engine = engine(config, OnnxModels.concat(directory, "m")))
        {
            final FakeBatch batch = new FakeBatch(config, 1, arena).requestOutputs("Y")
                .input("X", DataType.FP32, new long[] {1, 2}, new float[] {1, 2});
            engine.execute(batch);

            assertArrayEquals(new long[] {1, 4}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {1, 2, 1, 2}, batch.floats("Y"));
        }
    }

    @Test
    void stopsTrustingASymbolTheModelBreaksAndServesTheNextBatch() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "liar" backend: "onnxruntime" max_batch_size: 4
            input { name: "X" data_type: TYPE_FP32 dims: [-1] }
            output { name: "Y" data_type: TYPE_FP32 dims: [-1] }
            """);
        try (Engine engine = engine(config, OnnxModels.concat(directory, "n")))
        {
            final FakeBatch first = new FakeBatch(config, 1, arena).requestOutputs("Y")
                .input("X", DataType.FP32, new long[] {1, 2}, new float[] {1, 2});
            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> engine.execute(first));
            assertTrue(failure.getCause() instanceof OrtException, failure.toString());
            assertTrue(failure.getMessage().startsWith("model 'liar': ONNX Runtime failed to run the batch: "),
                failure.getMessage());
            assertTrue(failure.getMessage().toLowerCase().contains("shape"), failure.getMessage());

            final FakeBatch second = new FakeBatch(config, 1, arena).requestOutputs("Y")
                .input("X", DataType.FP32, new long[] {1, 2}, new float[] {3, 4});
            engine.execute(second);
            assertArrayEquals(new long[] {1, 4}, second.allocation("Y").shape());
            assertArrayEquals(new float[] {3, 4, 3, 4}, second.floats("Y"));
        }
    }

    @Test
    void passesInt64Tensors() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "twice" platform: "onnxruntime_onnx" max_batch_size: 2
            input { name: "IDS" data_type: TYPE_INT64 dims: [3] }
            output { name: "TWICE" data_type: TYPE_INT64 dims: [3] }
            """);
        try (Engine engine = engine(config, OnnxModels.int64Twice(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, 1, arena).requestOutputs("TWICE")
                .input("IDS", DataType.INT64, new long[] {1, 3}, new long[] {101, 7592, Long.MAX_VALUE / 2});
            engine.execute(batch);
            assertArrayEquals(new long[] {202, 15184, Long.MAX_VALUE - 1},
                batch.allocation("TWICE").memory().toArray(java.lang.foreign.ValueLayout.JAVA_LONG));
        }
    }

    @Test
    void runsAModelWithoutABatchDimension() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "relu" backend: "onnxruntime"
            input { name: "X" data_type: TYPE_FP32 dims: [2, 2] }
            output { name: "Y" data_type: TYPE_FP32 dims: [2, 2] }
            """);
        try (Engine engine = engine(config, OnnxModels.fixedRelu(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, 1, arena).requestOutputs("Y")
                .input("X", DataType.FP32, new long[] {2, 2}, new float[] {-1, 2, -3, 4});
            engine.execute(batch);
            assertArrayEquals(new long[] {2, 2}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {0, 2, 0, 4}, batch.floats("Y"));
        }
    }

    @Test
    void reshapesAnInputAsConfigured() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "add_sub" backend: "onnxruntime" max_batch_size: 8
            input { name: "A" data_type: TYPE_FP32 dims: [2, 2] reshape { shape: [4] } }
            input { name: "B" data_type: TYPE_FP32 dims: [4] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [2, 2] reshape { shape: [4] } }
            """);
        try (Engine engine = engine(config, OnnxModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, 1, arena).requestOutputs("SUM")
                .input("A", DataType.FP32, new long[] {1, 2, 2}, new float[] {1, 2, 3, 4})
                .input("B", DataType.FP32, new long[] {1, 4}, new float[] {1, 1, 1, 1});
            engine.execute(batch);
            assertArrayEquals(new long[] {1, 2, 2}, batch.allocation("SUM").shape());
            assertArrayEquals(new float[] {2, 3, 4, 5}, batch.floats("SUM"));
        }
    }

    @Test
    void passesEveryTypeTritonAndOnnxRuntimeShareUnchanged() throws Exception
    {
        for (final DataType type : DataType.values())
        {
            final String name = "id_" + type.name().toLowerCase(java.util.Locale.ROOT);
            final ModelConfig config = TestModels.config("name: \"" + name + "\" backend: \"onnxruntime\""
                + " max_batch_size: 4 input { name: \"X\" data_type: " + OnnxTypes.configName(type)
                + " dims: [-1] } output { name: \"Y\" data_type: " + OnnxTypes.configName(type) + " dims: [-1] }");
            final Path file = OnnxModels.identity(directory.resolve(name), type);
            try (Engine engine = engine(config, file))
            {
                final MemorySegment data = type == DataType.BYTES
                    ? BytesLayout.encode(arena, new byte[0], new byte[] {0, 1, (byte) 0xff}, "ünï".getBytes(
                        java.nio.charset.StandardCharsets.UTF_8), new byte[] {(byte) 0xc3, 0x28})
                    : arena.allocate(4L * type.byteSize());
                if (type != DataType.BYTES)
                {
                    for (long i = 0; i < data.byteSize(); i++)
                    {
                        // Every bit pattern is a value for these types (NaNs included: identity keeps their bits).
                        data.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 37 + 11));
                    }
                    if (type == DataType.BOOL)
                    {
                        data.copyFrom(MemorySegment.ofArray(new byte[] {1, 0, 0, 1}));
                    }
                }
                final FakeBatch batch = new FakeBatch(config, 2, arena).requestOutputs("Y")
                    .input("X", type, new long[] {2, 2}, data);
                engine.execute(batch);
                assertArrayEquals(new long[] {2, 2}, batch.allocation("Y").shape(), type.name());
                assertArrayEquals(data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                    batch.allocation("Y").memory().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), type.name());
            }
        }
    }

    @Test
    void passesStringTensorsInTritonsBytesLayout() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "echo" backend: "onnxruntime" max_batch_size: 2
            input { name: "S" data_type: TYPE_STRING dims: [2] }
            output { name: "T" data_type: TYPE_STRING dims: [2] }
            """);
        try (Engine engine = engine(config, OnnxModels.stringEcho(directory)))
        {
            final MemorySegment encoded = BytesLayout.encode(arena,
                "ünï".getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[0]);
            final FakeBatch batch = new FakeBatch(config, 1, arena).requestOutputs("T")
                .input("S", DataType.BYTES, new long[] {1, 2}, encoded);
            engine.execute(batch);

            final MemorySegment output = batch.allocation("T").memory();
            assertArrayEquals(new long[] {1, 2}, batch.allocation("T").shape());
            assertArrayEquals(encoded.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                output.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    /** An engine that also closes its backend, so each test releases its session. */
    private record ClosingEngine(Engine engine, Backend backend) implements Engine
    {
        @Override
        public void execute(final io.ingot.backend.Batch batch) throws Exception
        {
            engine.execute(batch);
        }

        @Override
        public void close() throws Exception
        {
            try
            {
                engine.close();
            }
            finally
            {
                backend.close();
            }
        }
    }
}
