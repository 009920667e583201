package io.ingot.trt.reference;

import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.util.Arrays;

/**
 * The shape of a {@code cublas_mlp} model, from its configuration parameters:
 * <ul>
 *   <li>{@code layers}: the widths, input first, output last, comma-separated, e.g. {@code "512,1024,1024,10"}
 *       (three dense layers: 512x1024, 1024x1024, 1024x10);</li>
 *   <li>{@code seed}: the seed of the weights (default {@value #DEFAULT_SEED}), see {@link MlpWeights}.</li>
 * </ul>
 * The model has one FP32 input of dims {@code [layers[0]]} and one FP32 output of dims {@code [layers[last]]}, and
 * batches rows ({@code max_batch_size >= 1}).
 *
 * @param widths the layer widths, at least two
 * @param seed   the weight seed
 */
public record MlpSpec(int[] widths, long seed)
{
    /** Parameter holding the widths. */
    public static final String LAYERS_PARAMETER = "layers";
    /** Parameter holding the seed. */
    public static final String SEED_PARAMETER = "seed";
    /** Seed used when the parameter is absent. */
    public static final long DEFAULT_SEED = 1;
    /** Largest width accepted (keeps one weight matrix under 2^31 elements for cuBLAS's int dimensions). */
    public static final int MAX_WIDTH = 1 << 15;

    /** Copies the widths. */
    public MlpSpec
    {
        widths = widths.clone();
    }

    /** @return a copy of the widths */
    @Override
    public int[] widths()
    {
        return widths.clone();
    }

    /** @return the number of dense layers */
    public int layerCount()
    {
        return widths.length - 1;
    }

    /**
     * @param layer a layer index
     * @return its input width
     */
    public int in(final int layer)
    {
        return widths[layer];
    }

    /**
     * @param layer a layer index
     * @return its output width
     */
    public int out(final int layer)
    {
        return widths[layer + 1];
    }

    /** @return the widest layer */
    public int maxWidth()
    {
        return Arrays.stream(widths).max().orElseThrow();
    }

    /**
     * Reads and checks the parameters.
     *
     * @param label  the model's label for messages
     * @param config the configuration
     * @return the spec
     * @throws IllegalArgumentException naming the model, the parameter and what was expected
     */
    public static MlpSpec from(final String label, final ModelConfig config)
    {
        final var layers = config.getParametersMap().get(LAYERS_PARAMETER);
        if (layers == null || layers.getStringValue().isBlank())
        {
            throw new IllegalArgumentException(label + ": cublas_mlp needs parameter '" + LAYERS_PARAMETER
                + "', the layer widths from input to output, e.g. parameters { key: \"layers\" value { string_value: "
                + "\"512,1024,10\" } }");
        }
        final String[] parts = layers.getStringValue().split(",");
        final int[] widths = new int[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                widths[i] = Integer.parseInt(parts[i].trim());
            }
            catch (final NumberFormatException notNumber)
            {
                widths[i] = -1;
            }
            if (widths[i] < 1 || widths[i] > MAX_WIDTH)
            {
                throw new IllegalArgumentException(label + ": parameter '" + LAYERS_PARAMETER + "' is '"
                    + layers.getStringValue() + "'; width " + (i + 1) + " ('" + parts[i].trim()
                    + "') must be an integer from 1 to " + MAX_WIDTH);
            }
        }
        if (widths.length < 2)
        {
            throw new IllegalArgumentException(label + ": parameter '" + LAYERS_PARAMETER + "' is '"
                + layers.getStringValue() + "'; it needs at least two widths (input and output)");
        }
        final var seedParameter = config.getParametersMap().get(SEED_PARAMETER);
        long seed = DEFAULT_SEED;
        if (seedParameter != null)
        {
            try
            {
                seed = Long.parseLong(seedParameter.getStringValue().trim());
            }
            catch (final NumberFormatException notNumber)
            {
                throw new IllegalArgumentException(label + ": parameter '" + SEED_PARAMETER + "' is '"
                    + seedParameter.getStringValue() + "'; expected an integer");
            }
        }
        return new MlpSpec(widths, seed);
    }

    /**
     * Checks that the configuration's tensors are what the widths make.
     *
     * @param label  the model's label
     * @param config the configuration
     * @throws IllegalArgumentException naming the model, tensor and field
     */
    public void check(final String label, final ModelConfig config)
    {
        if (config.getMaxBatchSize() < 1)
        {
            throw new IllegalArgumentException(label + ": cublas_mlp batches rows: set max_batch_size >= 1");
        }
        if (config.getInputCount() != 1 || config.getOutputCount() != 1)
        {
            throw new IllegalArgumentException(label + ": cublas_mlp has exactly one input and one output; "
                + "config.pbtxt has " + config.getInputCount() + " and " + config.getOutputCount());
        }
        checkTensor(label, "input", config.getInput(0).getName(), config.getInput(0).getDataType(),
            config.getInput(0).getDimsList(), widths[0]);
        checkTensor(label, "output", config.getOutput(0).getName(), config.getOutput(0).getDataType(),
            config.getOutput(0).getDimsList(), widths[widths.length - 1]);
    }

    /**
     * Adds the input and output when the configuration has none (auto-complete).
     *
     * @param config the configuration
     * @return the completed configuration
     */
    public ModelConfig complete(final ModelConfig config)
    {
        final ModelConfig.Builder builder = config.toBuilder();
        if (config.getInputCount() == 0)
        {
            builder.addInput(ModelInput.newBuilder().setName("INPUT0").setDataType(DataType.TYPE_FP32)
                .addDims(widths[0]));
        }
        if (config.getOutputCount() == 0)
        {
            builder.addOutput(ModelOutput.newBuilder().setName("OUTPUT0").setDataType(DataType.TYPE_FP32)
                .addDims(widths[widths.length - 1]));
        }
        return builder.build();
    }

    private static void checkTensor(final String label, final String kind, final String name, final DataType type,
        final java.util.List<Long> dims, final int width)
    {
        if (type != DataType.TYPE_FP32 || !dims.equals(java.util.List.of((long) width)))
        {
            throw new IllegalArgumentException(label + ": cublas_mlp " + kind + " '" + name + "' must be TYPE_FP32 "
                + "with dims [" + width + "] (from parameter 'layers'), but config.pbtxt has " + type + " " + dims);
        }
    }
}
