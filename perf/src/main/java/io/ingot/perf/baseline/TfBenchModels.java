package io.ingot.perf.baseline;

import io.ingot.tensor.DataType;
import io.ingot.tensorflow.savedmodel.ExampleSavedModels;
import io.ingot.tensorflow.savedmodel.GraphBuilder;
import io.ingot.tensorflow.savedmodel.SavedModelReader;
import io.ingot.tensorflow.savedmodel.SavedModelWriter;

import java.util.SplittableRandom;

/**
 * The SavedModels the TensorFlow comparison runs, written by the tensorflow module's own writer:
 * <ul>
 *   <li>{@code simple}: the example repository's {@code my_model} (two FP32 [16] vectors to their sum and
 *       difference), where nearly all the time is overhead: the serving cost a server adds;</li>
 *   <li>{@code mlp}: {@code x} FP32 [256] through dense layers of widths 1024, 1024 (ReLU) and 16, weights seeded
 *       uniform in +-1/sqrt(fan-in), as graph constants: about 1.3 M multiply-adds a row, so batching pays.</li>
 * </ul>
 */
final class TfBenchModels
{
    /** Widths of the MLP, input first. */
    static final int[] MLP_WIDTHS = {256, 1024, 1024, 16};

    private TfBenchModels()
    {
    }

    /**
     * @param name {@code simple} or {@code mlp}
     * @param seed the MLP's weight seed
     * @return the SavedModel
     * @throws IllegalArgumentException for another name
     */
    static SavedModelWriter model(final String name, final long seed)
    {
        return switch (name)
        {
            case "simple" -> ExampleSavedModels.addSub(16);
            case "mlp" -> mlp(seed);
            default -> throw new IllegalArgumentException("--model must be simple or mlp, was '" + name + "'");
        };
    }

    private static SavedModelWriter mlp(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final GraphBuilder graph = new GraphBuilder();
        String x = graph.placeholder("x", DataType.FP32, -1, MLP_WIDTHS[0]);
        final String input = x;
        for (int layer = 1; layer < MLP_WIDTHS.length; layer++)
        {
            final int in = MLP_WIDTHS[layer - 1];
            final int out = MLP_WIDTHS[layer];
            final float[] weights = new float[in * out];
            final double bound = 1 / Math.sqrt(in);
            for (int i = 0; i < weights.length; i++)
            {
                weights[i] = (float) random.nextDouble(-bound, bound);
            }
            final float[] bias = new float[out];
            for (int i = 0; i < out; i++)
            {
                bias[i] = (float) random.nextDouble(-bound, bound);
            }
            final String w = graph.constant("w" + layer, new long[] {in, out}, weights);
            final String b = graph.constant("b" + layer, new long[] {out}, bias);
            final String product = graph.matMul("matmul" + layer, x, w, DataType.FP32);
            x = graph.binary("AddV2", "dense" + layer, product, b, DataType.FP32);
            if (layer < MLP_WIDTHS.length - 1)
            {
                x = graph.unary("Relu", "relu" + layer, x, DataType.FP32);
            }
        }
        return new SavedModelWriter(graph.build(), SavedModelReader.DEFAULT_TAG)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "x", input + ":0", DataType.FP32,
                new long[] {-1, MLP_WIDTHS[0]})
            .output(SavedModelReader.DEFAULT_SIGNATURE, "y", x + ":0", DataType.FP32,
                new long[] {-1, MLP_WIDTHS[MLP_WIDTHS.length - 1]});
    }

    /**
     * @param name {@code simple} or {@code mlp}
     * @return the model's inputs and outputs as a {@code config.pbtxt} fragment
     */
    static String io(final String name)
    {
        if (name.equals("simple"))
        {
            return """
                input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
                        { name: "INPUT1" data_type: TYPE_FP32 dims: [ 16 ] } ]
                output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
                         { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 16 ] } ]
                """;
        }
        return """
            input [ { name: "x" data_type: TYPE_FP32 dims: [ %d ] } ]
            output [ { name: "y" data_type: TYPE_FP32 dims: [ %d ] } ]
            """.formatted(MLP_WIDTHS[0], MLP_WIDTHS[MLP_WIDTHS.length - 1]);
    }
}
