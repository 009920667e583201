package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes the example repository's SavedModels at build time ({@code exec-maven-plugin}, phase
 * {@code process-classes}): {@code my_model/1/model.savedmodel} and {@code priority_model/1/model.savedmodel}, the
 * article's two models ({@link #article()}): the serving signature {@code serving_default} (tag {@code serve}) takes
 * {@code input_1} FP32 {@code [-1, 16]} and answers {@code output_1} FP32 {@code [-1, 16]}, one dense layer
 * ({@link #ARTICLE_LAYER}) as a Keras {@code Dense(16)} model would export it. A file whose bytes are already right is
 * left alone. {@link #addSub} is Triton's classic "simple" model and {@link #denseMlp} a compute-heavier one, for
 * the benchmarks and tests.
 */
public final class ExampleSavedModels
{
    /** The example models that hold this SavedModel. */
    public static final List<String> MODELS = List.of("my_model", "priority_model");

    /** The article's input and output width. */
    public static final int ARTICLE_WIDTH = 16;

    /** The article models' one layer: {@code output_1 = input_1 · W + b}, seeded. */
    public static final DenseLayer ARTICLE_LAYER = DenseLayer.seeded(ARTICLE_WIDTH, ARTICLE_WIDTH,
        new SplittableRandom(20_250_101L));

    private ExampleSavedModels()
    {
    }

    /**
     * @param args the example repository ({@code examples/models})
     * @throws IOException when a file cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            throw new IllegalArgumentException("usage: ExampleSavedModels <examples/models>");
        }
        final Path repository = Path.of(args[0]).toAbsolutePath().normalize();
        for (final String model : MODELS)
        {
            if (!Files.isRegularFile(repository.resolve(model).resolve("config.pbtxt")))
            {
                throw new IOException(repository.resolve(model).resolve("config.pbtxt") + " is missing: the example"
                    + " SavedModel belongs to that configuration");
            }
            final Path directory = repository.resolve(model).resolve("1").resolve("model.savedmodel");
            if (article().write(directory))
            {
                System.out.println("wrote " + directory.resolve(SavedModelReader.SAVED_MODEL_PB));
            }
        }
    }

    /**
     * @return the article's model: {@code input_1} FP32 {@code [-1, 16]} through {@link #ARTICLE_LAYER} to
     *         {@code output_1} FP32 {@code [-1, 16]}, batching on its first dimension
     */
    public static SavedModelWriter article()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String input = graph.placeholder("input_1", DataType.FP32, -1, ARTICLE_WIDTH);
        final String output = ARTICLE_LAYER.addTo(graph, "dense", input);
        final long[] dims = {-1, ARTICLE_WIDTH};
        return new SavedModelWriter(graph.build(), SavedModelReader.DEFAULT_TAG)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "input_1", input + ":0", DataType.FP32, dims)
            .output(SavedModelReader.DEFAULT_SIGNATURE, "output_1", output + ":0", DataType.FP32, dims);
    }

    /**
     * @param elements the length of each vector
     * @return the "simple" add/sub SavedModel, batching on its first dimension
     */
    public static SavedModelWriter addSub(final int elements)
    {
        final GraphBuilder graph = new GraphBuilder();
        final String a = graph.placeholder("INPUT0", DataType.FP32, -1, elements);
        final String b = graph.placeholder("INPUT1", DataType.FP32, -1, elements);
        final String sum = graph.binary("AddV2", "add", a, b, DataType.FP32);
        final String difference = graph.binary("Sub", "sub", a, b, DataType.FP32);
        final long[] dims = {-1, elements};
        return new SavedModelWriter(graph.build(), SavedModelReader.DEFAULT_TAG)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "INPUT0", a + ":0", DataType.FP32, dims)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "INPUT1", b + ":0", DataType.FP32, dims)
            .output(SavedModelReader.DEFAULT_SIGNATURE, "OUTPUT0", sum + ":0", DataType.FP32, dims)
            .output(SavedModelReader.DEFAULT_SIGNATURE, "OUTPUT1", difference + ":0", DataType.FP32, dims);
    }

    /**
     * A multi-layer perceptron: {@code x} FP32 {@code [-1, widths[0]]} through dense layers ({@code MatMul} +
     * {@code AddV2}, ReLU between them) to {@code y} FP32 {@code [-1, widths[last]]}; weights and biases seeded uniform
     * in +-1/sqrt(fan-in), stored as graph constants (no variables).
     *
     * @param widths the layer widths, input first
     * @param seed   the weights' seed
     * @return the SavedModel
     */
    public static SavedModelWriter denseMlp(final int[] widths, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final GraphBuilder graph = new GraphBuilder();
        final String input = graph.placeholder("x", DataType.FP32, -1, widths[0]);
        String x = input;
        for (int layer = 1; layer < widths.length; layer++)
        {
            x = DenseLayer.seeded(widths[layer - 1], widths[layer], random).addTo(graph, "dense" + layer, x);
            if (layer < widths.length - 1)
            {
                x = graph.unary("Relu", "relu" + layer, x, DataType.FP32);
            }
        }
        return new SavedModelWriter(graph.build(), SavedModelReader.DEFAULT_TAG)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "x", input + ":0", DataType.FP32, new long[] {-1, widths[0]})
            .output(SavedModelReader.DEFAULT_SIGNATURE, "y", x + ":0", DataType.FP32,
                new long[] {-1, widths[widths.length - 1]});
    }
}
