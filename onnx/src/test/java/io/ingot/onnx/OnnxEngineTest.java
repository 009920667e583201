package io.ingot.onnx;

import ai.onnxruntime.OrtException;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

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
        return new ClosingEngine(backend.createEngine(instance(context, 0)), backend);
    }

    private static InstanceContext instance(final ModelContext context, final int index)
    {
        return new InstanceContext(context, context.modelName() + "_" + index, index,
            ModelInstanceGroup.Kind.KIND_CPU, -1, List.of());
    }

    @Test
    void addsAndSubtractsABatchOfTwoRowsIntoAllocatedMemory() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, TestModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, arena, 2, Set.of("SUM", "DIFF"))
                .floats("A", new long[] {2, 4}, 1, 2, 3, 4, 5, 6, 7, 8)
                .floats("B", new long[] {2, 4}, 10, 20, 30, 40, 50, 60, 70, 80);
            engine.execute(batch);

            assertArrayEquals(new long[] {2, 4}, batch.allocation("SUM").shape());
            assertArrayEquals(new float[] {11, 22, 33, 44, 55, 66, 77, 88}, batch.floatsOf("SUM"));
            assertArrayEquals(new float[] {-9, -18, -27, -36, -45, -54, -63, -72}, batch.floatsOf("DIFF"));
            assertEquals(2, batch.allocations().size(), "each output is allocated exactly once");
        }
    }

    @Test
    void producesOnlyTheRequestedOutputs() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, TestModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, arena, 1, Set.of("DIFF"))
                .floats("A", new long[] {1, 4}, 1, 1, 1, 1)
                .floats("B", new long[] {1, 4}, 2, 2, 2, 2);
            engine.execute(batch);

            assertNull(batch.allocation("SUM"));
            assertArrayEquals(new float[] {-1, -1, -1, -1}, batch.floatsOf("DIFF"));
        }
    }

    @Test
    void reusesItsTensorsAcrossBatchesOfDifferentSizes() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, TestModels.addSub(directory)))
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
                final FakeBatch batch = new FakeBatch(ADD_SUB, arena, size, Set.of("SUM"))
                    .floats("A", new long[] {size, 4}, a)
                    .floats("B", new long[] {size, 4}, b);
                engine.execute(batch);
                assertArrayEquals(sum, batch.floatsOf("SUM"), "batch of " + size);
            }
        }
    }

    @Test
    void writesIntoHeapOutputMemoryThroughACopy() throws Exception
    {
        try (Engine engine = engine(ADD_SUB, TestModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(ADD_SUB, arena, 1, Set.of("SUM")).heapOutputs()
                .floats("A", new long[] {1, 4}, 1, 2, 3, 4)
                .floats("B", new long[] {1, 4}, 1, 1, 1, 1);
            engine.execute(batch);

            assertFalse(batch.allocation("SUM").memory().isNative());
            assertArrayEquals(new float[] {2, 3, 4, 5}, batch.floatsOf("SUM"));
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
        try (Engine engine = engine(config, TestModels.doubler(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, arena, 2, Set.of("Y"))
                .floats("X", new long[] {2, 3}, 1, 2, 3, 4, 5, 6);
            engine.execute(batch);

            assertArrayEquals(new long[] {2, 3}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12}, batch.floatsOf("Y"));
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
        try (Engine engine = engine(config, TestModels.concat(directory, "m")))
        {
            final FakeBatch batch = new FakeBatch(config, arena, 1, Set.of("Y"))
                .floats("X", new long[] {1, 2}, 1, 2);
            engine.execute(batch);

            assertArrayEquals(new long[] {1, 4}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {1, 2, 1, 2}, batch.floatsOf("Y"));
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
        try (Engine engine = engine(config, TestModels.concat(directory, "n")))
        {
            final FakeBatch first = new FakeBatch(config, arena, 1, Set.of("Y"))
                .floats("X", new long[] {1, 2}, 1, 2);
            final OrtException failure = assertThrows(OrtException.class, () -> engine.execute(first));
            assertTrue(failure.getMessage().toLowerCase().contains("shape"), failure.getMessage());

            final FakeBatch second = new FakeBatch(config, arena, 1, Set.of("Y"))
                .floats("X", new long[] {1, 2}, 3, 4);
            engine.execute(second);
            assertArrayEquals(new long[] {1, 4}, second.allocation("Y").shape());
            assertArrayEquals(new float[] {3, 4, 3, 4}, second.floatsOf("Y"));
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
        try (Engine engine = engine(config, TestModels.int64Twice(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, arena, 1, Set.of("TWICE"))
                .longs("IDS", new long[] {1, 3}, 101, 7592, Long.MAX_VALUE / 2);
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
        try (Engine engine = engine(config, TestModels.fixedRelu(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, arena, 1, Set.of("Y"))
                .floats("X", new long[] {2, 2}, -1, 2, -3, 4);
            engine.execute(batch);
            assertArrayEquals(new long[] {2, 2}, batch.allocation("Y").shape());
            assertArrayEquals(new float[] {0, 2, 0, 4}, batch.floatsOf("Y"));
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
        try (Engine engine = engine(config, TestModels.addSub(directory)))
        {
            final FakeBatch batch = new FakeBatch(config, arena, 1, Set.of("SUM"))
                .floats("A", new long[] {1, 2, 2}, 1, 2, 3, 4)
                .floats("B", new long[] {1, 4}, 1, 1, 1, 1);
            engine.execute(batch);
            assertArrayEquals(new long[] {1, 2, 2}, batch.allocation("SUM").shape());
            assertArrayEquals(new float[] {2, 3, 4, 5}, batch.floatsOf("SUM"));
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
        try (Engine engine = engine(config, TestModels.stringEcho(directory)))
        {
            final byte[][] words = {"ünï".getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[0]};
            final MemorySegment encoded = arena.allocate(TensorViews.encodedSize(words));
            TensorViews.encodeStrings(words, encoded);
            final FakeBatch batch = new FakeBatch(config, arena, 1, Set.of("T"))
                .raw("S", io.ingot.api.DataType.BYTES, new long[] {1, 2}, encoded);
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
