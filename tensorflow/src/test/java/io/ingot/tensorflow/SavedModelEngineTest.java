package io.ingot.tensorflow;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine on real SavedModels written by the module's writer and run by TensorFlow 2.18 through the C API: known
 * answers, every datatype, strings TensorFlow makes itself, inputs lent without a copy (and copied once when not
 * aligned), only the requested outputs fetched, a failing batch that leaves the instance serving.
 */
class SavedModelEngineTest
{
    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception
    {
        for (int i = open.size() - 1; i >= 0; i--)
        {
            open.get(i).close();
        }
    }

    private SavedModelEngine engine(final String config, final Path savedModel) throws Exception
    {
        final ModelConfig parsed = TestModels.config(config);
        final ModelContext context = TestModels.context(parsed, savedModel);
        final Backend backend = new TensorFlowBackendFactory().load(context);
        open.add(backend);
        final Engine engine = backend.createEngine(TestModels.cpuInstance(context, 0));
        open.add(engine);
        return (SavedModelEngine) engine;
    }

    private static float[] floats(final int count, final float base)
    {
        final float[] values = new float[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = base + i * 0.5f;
        }
        return values;
    }

    @Test
    void addSubGivesExactAnswersAndLendsTheBatchMemory() throws Exception
    {
        final SavedModelEngine engine = engine(TestSavedModels.addSubConfig("add_sub"),
            TestSavedModels.write(TestSavedModels.addSub(), dir.resolve("add_sub")));
        final float[] a = floats(64, 100);
        final float[] b = floats(64, -3);
        try (FakeBatch batch = new FakeBatch(config("add_sub"), 4)
            .input("INPUT0", DataType.FP32, new long[] {4, 16}, a)
            .input("INPUT1", DataType.FP32, new long[] {4, 16}, b))
        {
            engine.execute(batch);
            final float[] sum = batch.floats("OUTPUT0");
            final float[] difference = batch.floats("OUTPUT1");
            for (int i = 0; i < 64; i++)
            {
                assertEquals(a[i] + b[i], sum[i]);
                assertEquals(a[i] - b[i], difference[i]);
            }
            assertArrayEquals(new long[] {4, 16}, batch.outputShape("OUTPUT0"));
        }
        assertEquals(0, engine.unalignedCopies(), "aligned batch memory must be lent, not copied");
        assertEquals(2, engine.released(), "TensorFlow released both lent inputs");
        assertEquals(0, engine.outstanding());
    }

    private static ModelConfig config(final String name)
    {
        return TestModels.config(TestSavedModels.addSubConfig(name));
    }

    @Test
    void anUnalignedInputIsCopiedOnceAndStillRight() throws Exception
    {
        final SavedModelEngine engine = engine(TestSavedModels.addSubConfig("add_sub"),
            TestSavedModels.write(TestSavedModels.addSub(), dir.resolve("add_sub")));
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment block = arena.allocate(64 * 3, 64);
            final MemorySegment odd = block.asSlice(4, 64);
            final MemorySegment aligned = block.asSlice(128, 64);
            for (int i = 0; i < 16; i++)
            {
                odd.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                aligned.setAtIndex(ValueLayout.JAVA_FLOAT, i, 10 * i);
            }
            for (int round = 0; round < 3; round++)
            {
                try (FakeBatch batch = new FakeBatch(config("add_sub"), 1)
                    .input("INPUT0", DataType.FP32, new long[] {1, 16}, odd)
                    .input("INPUT1", DataType.FP32, new long[] {1, 16}, aligned))
                {
                    engine.execute(batch);
                    final float[] sum = batch.floats("OUTPUT0");
                    for (int i = 0; i < 16; i++)
                    {
                        assertEquals(11f * i, sum[i]);
                    }
                }
            }
        }
        assertEquals(3, engine.unalignedCopies(), "one copy per batch, of the unaligned input only");
        assertEquals(0, engine.outstanding());
    }

    @Test
    void onlyTheRequestedOutputsAreFetched() throws Exception
    {
        final SavedModelEngine engine = engine(TestSavedModels.addSubConfig("add_sub"),
            TestSavedModels.write(TestSavedModels.addSub(), dir.resolve("add_sub")));
        try (FakeBatch batch = new FakeBatch(config("add_sub"), 2).requestOutputs("OUTPUT1")
            .input("INPUT0", DataType.FP32, new long[] {2, 16}, floats(32, 1))
            .input("INPUT1", DataType.FP32, new long[] {2, 16}, floats(32, 1)))
        {
            engine.execute(batch);
            assertEquals(1, batch.allocations().size());
            assertEquals("OUTPUT1", batch.allocations().getFirst().name());
            for (final float value : batch.floats("OUTPUT1"))
            {
                assertEquals(0f, value);
            }
        }
    }

    @Test
    void constantsAndMatMulGiveTheKnownAffineMap() throws Exception
    {
        final SavedModelEngine engine = engine("name: 'affine' platform: 'tensorflow_savedmodel' max_batch_size: 4"
            + " input [{ name: 'x' data_type: TYPE_FP32 dims: [4] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [3] }]",
            TestSavedModels.write(TestSavedModels.affine(), dir.resolve("affine")));
        final float[] x = {1, 2, 3, 4, -1, 0, 0.5f, 2};
        try (FakeBatch batch = new FakeBatch(TestModels.config("name: 'affine' max_batch_size: 4"
            + " input [{ name: 'x' data_type: TYPE_FP32 dims: [4] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [3] }]"), 2)
            .input("x", DataType.FP32, new long[] {2, 4}, x))
        {
            engine.execute(batch);
            final float[] y = batch.floats("y");
            for (int row = 0; row < 2; row++)
            {
                for (int col = 0; col < 3; col++)
                {
                    float expected = TestSavedModels.BIAS[col];
                    for (int k = 0; k < 4; k++)
                    {
                        expected += x[row * 4 + k] * TestSavedModels.WEIGHTS[k * 3 + col];
                    }
                    assertEquals(expected, y[row * 3 + col], 1e-6f, "y[" + row + "][" + col + "]");
                }
            }
        }
    }

    @Test
    void everyFixedSizeTypeRoundTripsBitForBit() throws Exception
    {
        final StringBuilder io = new StringBuilder();
        for (final DataType type : TestSavedModels.FIXED_TYPES)
        {
            io.append(" input [{ name: 'in_").append(type).append("' data_type: TYPE_").append(configName(type))
                .append(" dims: [3] }]").append(" output [{ name: 'out_").append(type).append("' data_type: TYPE_")
                .append(configName(type)).append(" dims: [3] }]");
        }
        final String config = "name: 'types' platform: 'tensorflow_savedmodel' max_batch_size: 2" + io;
        final SavedModelEngine engine = engine(config, TestSavedModels.write(
            TestSavedModels.identities(TestSavedModels.FIXED_TYPES), dir.resolve("types")));
        final Random random = new Random(17);
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 2))
        {
            final List<byte[]> sent = new ArrayList<>();
            for (final DataType type : TestSavedModels.FIXED_TYPES)
            {
                final byte[] bytes = new byte[2 * 3 * type.byteSize()];
                random.nextBytes(bytes);
                if (type == DataType.BOOL)
                {
                    for (int i = 0; i < bytes.length; i++)
                    {
                        bytes[i] = (byte) (bytes[i] & 1);
                    }
                }
                sent.add(bytes);
                batch.input("in_" + type, type, new long[] {2, 3}, bytes);
            }
            engine.execute(batch);
            for (int t = 0; t < sent.size(); t++)
            {
                final DataType type = TestSavedModels.FIXED_TYPES.get(t);
                assertArrayEquals(sent.get(t), batch.output("out_" + type).toArray(ValueLayout.JAVA_BYTE),
                    type.toString());
                assertArrayEquals(new long[] {2, 3}, batch.outputShape("out_" + type), type.toString());
            }
        }
        assertEquals(TestSavedModels.FIXED_TYPES.size(), engine.released());
        assertEquals(0, engine.outstanding(), "outputs that alias their input (Identity) were released too");
    }

    private static String configName(final DataType type)
    {
        return type == DataType.BYTES ? "STRING" : type.name();
    }

    @Test
    void stringsGoInAsViewsAndComeBackInTritonsLayout() throws Exception
    {
        final String suffix = "-suffix";
        final String config = "name: 'strings' platform: 'tensorflow_savedmodel' max_batch_size: 0"
            + " input [{ name: 'text' data_type: TYPE_STRING dims: [-1] }]"
            + " output [{ name: 'joined' data_type: TYPE_STRING dims: [-1] },"
            + " { name: 'echo' data_type: TYPE_STRING dims: [-1] }]";
        final SavedModelEngine engine = engine(config, TestSavedModels.write(TestSavedModels.strings(suffix),
            dir.resolve("strings")));
        final List<String> texts = List.of("", "short", "a string well over the twenty-two bytes kept inline",
            "ünïcödé");
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 1)
            .input("text", DataType.BYTES, new long[] {texts.size()}, bytes(texts)))
        {
            engine.execute(batch);
            assertEquals(texts.stream().map(t -> t + suffix).toList(), strings(batch.output("joined")));
            assertEquals(texts, strings(batch.output("echo")));
            assertArrayEquals(new long[] {texts.size()}, batch.outputShape("joined"));
        }
        assertEquals(0, engine.outstanding());
    }

    private static byte[] bytes(final List<String> texts)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final String text : texts)
        {
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(utf8.length).array());
            out.writeBytes(utf8);
        }
        return out.toByteArray();
    }

    private static List<String> strings(final MemorySegment encoded)
    {
        final ByteBuffer buffer = encoded.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        final List<String> texts = new ArrayList<>();
        while (buffer.hasRemaining())
        {
            final byte[] utf8 = new byte[buffer.getInt()];
            buffer.get(utf8);
            texts.add(new String(utf8, StandardCharsets.UTF_8));
        }
        return texts;
    }

    @Test
    void aMalformedStringInputFailsThatBatchByName() throws Exception
    {
        final String config = "name: 'strings' platform: 'tensorflow_savedmodel' max_batch_size: 0"
            + " input [{ name: 'text' data_type: TYPE_STRING dims: [-1] }]"
            + " output [{ name: 'echo' data_type: TYPE_STRING dims: [-1] }]";
        final SavedModelEngine engine = engine(config, TestSavedModels.write(TestSavedModels.strings("!"),
            dir.resolve("strings")));
        final byte[] truncated = {10, 0, 0, 0, 'a', 'b'};
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 1)
            .input("text", DataType.BYTES, new long[] {1}, truncated))
        {
            final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> engine.execute(batch));
            assertTrue(failure.getMessage().contains("claims 10 bytes"), failure.getMessage());
        }
        assertEquals(0, engine.outstanding());
    }

    @Test
    void reshapedInputsAndOutputsTakeTheModelsShape() throws Exception
    {
        final String config = "name: 'affine' platform: 'tensorflow_savedmodel' max_batch_size: 4"
            + " input [{ name: 'x' data_type: TYPE_FP32 dims: [2, 2] reshape { shape: [4] } }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [3, 1] reshape { shape: [3] } }]";
        final SavedModelEngine engine = engine(config, TestSavedModels.write(TestSavedModels.affine(),
            dir.resolve("affine")));
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 1)
            .input("x", DataType.FP32, new long[] {1, 2, 2}, new float[] {1, 0, 0, 0}))
        {
            engine.execute(batch);
            assertArrayEquals(new long[] {1, 3, 1}, batch.outputShape("y"));
            final float[] y = batch.floats("y");
            for (int col = 0; col < 3; col++)
            {
                assertEquals(TestSavedModels.WEIGHTS[col] + TestSavedModels.BIAS[col], y[col]);
            }
        }
    }

    @Test
    void aBatchTensorFlowRejectsFailsAloneAndTheInstanceServesOn() throws Exception
    {
        final String config = "name: 'difference' platform: 'tensorflow_savedmodel' max_batch_size: 0"
            + " input [{ name: 'a' data_type: TYPE_FP32 dims: [-1] }, { name: 'b' data_type: TYPE_FP32 dims: [-1] }]"
            + " output [{ name: 'difference' data_type: TYPE_FP32 dims: [-1] }]";
        final SavedModelEngine engine = engine(config, TestSavedModels.write(TestSavedModels.difference(),
            dir.resolve("difference")));
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 1)
            .input("a", DataType.FP32, new long[] {3}, new float[] {1, 2, 3})
            .input("b", DataType.FP32, new long[] {2}, new float[] {1, 2}))
        {
            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> engine.execute(batch));
            assertTrue(failure.getMessage().startsWith("model 'difference': TF_SessionRun failed with"
                + " TF_INVALID_ARGUMENT"), failure.getMessage());
        }
        assertEquals(0, engine.outstanding(), "a failed run releases what it was lent");
        try (FakeBatch batch = new FakeBatch(TestModels.config(config), 1)
            .input("a", DataType.FP32, new long[] {2}, new float[] {5, 7})
            .input("b", DataType.FP32, new long[] {2}, new float[] {1, 2}))
        {
            engine.execute(batch);
            assertArrayEquals(new float[] {4, 5}, batch.floats("difference"));
        }
    }
}
