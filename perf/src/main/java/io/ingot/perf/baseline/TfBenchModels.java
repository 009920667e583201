package io.ingot.perf.baseline;

import io.ingot.tensorflow.savedmodel.ExampleSavedModels;
import io.ingot.tensorflow.savedmodel.SavedModelWriter;

/**
 * The SavedModels the TensorFlow comparison runs, written by the tensorflow module's own writer:
 * <ul>
 *   <li>{@code simple}: Triton's classic "simple" model (two FP32 [16] vectors to their sum and difference),
 *       where nearly all the time is overhead: the serving cost a server adds;</li>
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
            case "mlp" -> ExampleSavedModels.denseMlp(MLP_WIDTHS, seed);
            default -> throw new IllegalArgumentException("--model must be simple or mlp, was '" + name + "'");
        };
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
