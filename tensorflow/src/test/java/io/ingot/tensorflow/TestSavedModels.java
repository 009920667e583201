package io.ingot.tensorflow;

import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.savedmodel.ExampleSavedModels;
import io.ingot.tensorflow.savedmodel.GraphBuilder;
import io.ingot.tensorflow.savedmodel.SavedModelReader;
import io.ingot.tensorflow.savedmodel.SavedModelWriter;
import io.ingot.testing.TestModels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The SavedModels the tests serve, written by the module's own writer into a test's folder, and a repository layout
 * for them ({@code <root>/<model>/config.pbtxt}, {@code <root>/<model>/1/model.savedmodel}).
 */
final class TestSavedModels
{
    /** The affine model's weights, [4, 3] row-major. */
    static final float[] WEIGHTS = {1, 2, 3, -1, 0, 1, 0.5f, 0.25f, -2, 4, -3, 0};
    /** Its bias, [3]. */
    static final float[] BIAS = {0.5f, -1, 2};

    /** Every type Triton and TensorFlow both have, but strings. */
    static final List<DataType> FIXED_TYPES = List.of(DataType.BOOL, DataType.UINT8, DataType.UINT16,
        DataType.UINT32, DataType.UINT64, DataType.INT8, DataType.INT16, DataType.INT32, DataType.INT64,
        DataType.FP16, DataType.FP32, DataType.FP64, DataType.BF16);

    private TestSavedModels()
    {
    }

    static String signature()
    {
        return SavedModelReader.DEFAULT_SIGNATURE;
    }

    /** The "simple" model: INPUT0, INPUT1 FP32 [-1, 16] to their sum and difference. */
    static SavedModelWriter addSub()
    {
        return ExampleSavedModels.addSub(16);
    }

    /** {@code y = x . WEIGHTS + BIAS}: x FP32 [-1, 4], y FP32 [-1, 3], weights and bias as graph constants. */
    static SavedModelWriter affine()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String x = graph.placeholder("x", DataType.FP32, -1, 4);
        final String w = graph.constant("weights", new long[] {4, 3}, WEIGHTS);
        final String b = graph.constant("bias", new long[] {3}, BIAS);
        final String product = graph.matMul("product", x, w, DataType.FP32);
        final String y = graph.binary("AddV2", "y", product, b, DataType.FP32);
        return new SavedModelWriter(graph.build(), "serve")
            .input(signature(), "x", x + ":0", DataType.FP32, new long[] {-1, 4})
            .output(signature(), "y", y + ":0", DataType.FP32, new long[] {-1, 3});
    }

    /** One input {@code in_<TYPE>} [-1, 3] and its {@code Identity} {@code out_<TYPE>} per type (BYTES too). */
    static SavedModelWriter identities(final List<DataType> types)
    {
        final GraphBuilder graph = new GraphBuilder();
        for (final DataType type : types)
        {
            graph.placeholder("in_" + type, type, -1, 3);
            graph.identity("out_" + type, "in_" + type, type);
        }
        final SavedModelWriter writer = new SavedModelWriter(graph.build(), "serve");
        for (final DataType type : types)
        {
            writer.input(signature(), "in_" + type, "in_" + type + ":0", type, new long[] {-1, 3});
            writer.output(signature(), "out_" + type, "out_" + type + ":0", type, new long[] {-1, 3});
        }
        return writer;
    }

    /**
     * Strings TensorFlow makes itself: {@code joined = StringJoin(text, suffix)} with a constant suffix, so that short
     * inputs give inline (small) strings and long ones heap (large) strings; {@code echo = Identity(text)}.
     */
    static SavedModelWriter strings(final String suffix)
    {
        final GraphBuilder graph = new GraphBuilder();
        final String text = graph.placeholder("text", DataType.BYTES, -1);
        final String tail = graph.constant("suffix", suffix);
        final String joined = graph.stringJoin("joined", List.of(text, tail), "");
        final String echo = graph.identity("echo", text, DataType.BYTES);
        return new SavedModelWriter(graph.build(), "serve")
            .input(signature(), "text", text + ":0", DataType.BYTES, new long[] {-1})
            .output(signature(), "joined", joined + ":0", DataType.BYTES, new long[] {-1})
            .output(signature(), "echo", echo + ":0", DataType.BYTES, new long[] {-1});
    }

    /** {@code difference = a - b} over FP32 vectors of any length: TensorFlow rejects unequal lengths at run time. */
    static SavedModelWriter difference()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String a = graph.placeholder("a", DataType.FP32, -1);
        final String b = graph.placeholder("b", DataType.FP32, -1);
        final String d = graph.binary("Sub", "difference", a, b, DataType.FP32);
        return new SavedModelWriter(graph.build(), "serve")
            .input(signature(), "a", a + ":0", DataType.FP32, new long[] {-1})
            .input(signature(), "b", b + ":0", DataType.FP32, new long[] {-1})
            .output(signature(), "difference", d + ":0", DataType.FP32, new long[] {-1});
    }

    /** Writes a SavedModel into {@code dir} and returns it. */
    static Path write(final SavedModelWriter writer, final Path dir)
    {
        try
        {
            writer.write(dir);
            return dir;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code <root>/<name>/config.pbtxt} and, when {@code writer} is given, version 1's SavedModel. */
    static Path model(final Path root, final String name, final String config, final SavedModelWriter writer)
    {
        try
        {
            final Path model = Files.createDirectories(root.resolve(name));
            Files.writeString(model.resolve("config.pbtxt"), config);
            final Path version = Files.createDirectories(model.resolve("1"));
            if (writer != null)
            {
                write(writer, version.resolve("model.savedmodel"));
            }
            return version.resolve("model.savedmodel");
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** The configuration text of the add_sub model as the article writes my_model's, under another name. */
    static String addSubConfig(final String name)
    {
        return "name: '" + name + "' platform: 'tensorflow_savedmodel' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] }, { name: 'INPUT1' data_type: TYPE_FP32"
            + " dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] }, { name: 'OUTPUT1' data_type: TYPE_FP32"
            + " dims: [16] }]"
            + " instance_group [{ kind: KIND_CPU count: 1 }]";
    }

    /** @return the parsed configuration */
    static ModelConfig config(final String text)
    {
        return TestModels.config(text);
    }
}
