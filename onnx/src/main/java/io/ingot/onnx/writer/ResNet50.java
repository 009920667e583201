package io.ingot.onnx.writer;

import io.ingot.onnx.writer.proto.ModelProto;
import io.ingot.onnx.writer.proto.TensorProto;

import java.util.List;

/**
 * ResNet-50 (v1.5, the torchvision layout) as an ONNX graph with seeded random weights: a 7×7/2 stem convolution
 * with batch normalization, ReLU and 3×3/2 max pooling; four stages of 3, 4, 6 and 3 bottleneck blocks (widths 64,
 * 128, 256 and 512, expansion 4, the stride on the 3×3 convolution, a 1×1 projection on each stage's first block);
 * global average pooling; a 2048×1000 fully connected layer. Input {@value #INPUT} is {@code [batch, 3, 224, 224]}
 * float32, output {@value #OUTPUT} is {@code [batch, 1000]} float32; the batch dimension is symbolic, so the model
 * batches. 25.6 million parameters.
 *
 * <p>The weights are random (He-uniform convolutions, batch-norm statistics near identity, the last batch norm of
 * each block damped so activations stay in a moderate range): the model computes exactly what a trained ResNet-50
 * computes, at the same cost, but its logits carry no meaning.
 */
public final class ResNet50
{
    /** Name of the image input. */
    public static final String INPUT = "input";
    /** Name of the logits output. */
    public static final String OUTPUT = "logits";
    /** Number of classes. */
    public static final int CLASSES = 1000;

    private static final int[] BLOCKS = {3, 4, 6, 3};
    private static final int[] WIDTHS = {64, 128, 256, 512};
    private static final int EXPANSION = 4;
    private static final float BN_EPSILON = 1e-5f;

    private final OnnxModelBuilder model;
    private final SeededWeights weights;

    private ResNet50(final long seed, final String producerVersion)
    {
        this.model = new OnnxModelBuilder("resnet50").producer("ingot", producerVersion);
        this.weights = new SeededWeights(seed);
    }

    /**
     * Builds the model.
     *
     * @param seed            seed of every weight
     * @param producerVersion text recorded as the model's producer version (identifies the generator and seed)
     * @return the model
     */
    public static ModelProto build(final long seed, final String producerVersion)
    {
        return new ResNet50(seed, producerVersion).assemble();
    }

    private ModelProto assemble()
    {
        model.docString("ResNet-50 v1.5 topology with seeded random weights, written by Ingot's ONNX writer.");
        model.input(INPUT, TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(3), Dim.of(224), Dim.of(224));
        model.output(OUTPUT, TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(CLASSES));

        String x = convBn("stem", INPUT, 3, 64, 7, 2, 3, false);
        x = model.node("Relu", List.of(x), "stem_relu");
        x = model.node("MaxPool", List.of(x), "stem_pool",
            Attributes.ints("kernel_shape", 3, 3), Attributes.ints("strides", 2, 2), Attributes.ints("pads", 1, 1, 1, 1));

        int channels = 64;
        for (int stage = 0; stage < BLOCKS.length; stage++)
        {
            for (int block = 0; block < BLOCKS[stage]; block++)
            {
                final int stride = stage > 0 && block == 0 ? 2 : 1;
                x = bottleneck("layer" + (stage + 1) + "_" + block, x, channels, WIDTHS[stage], stride);
                channels = WIDTHS[stage] * EXPANSION;
            }
        }

        x = model.node("GlobalAveragePool", List.of(x), "pool");
        x = model.node("Flatten", List.of(x), "flatten", Attributes.intValue("axis", 1));
        final float bound = (float) (1.0 / Math.sqrt(channels));
        model.initializer("fc_weight", TensorProto.DataType.FLOAT, new long[] {CLASSES, channels},
            weights.uniform((long) CLASSES * channels, -bound, bound));
        model.initializer("fc_bias", TensorProto.DataType.FLOAT, new long[] {CLASSES},
            weights.uniform(CLASSES, -bound, bound));
        model.node("Gemm", List.of(x, "fc_weight", "fc_bias"), OUTPUT, Attributes.intValue("transB", 1));
        return model.build();
    }

    private String bottleneck(final String name, final String input, final int inChannels, final int width,
        final int stride)
    {
        final int outChannels = width * EXPANSION;
        String x = convBn(name + "_a", input, inChannels, width, 1, 1, 0, false);
        x = model.node("Relu", List.of(x), name + "_a_relu");
        x = convBn(name + "_b", x, width, width, 3, stride, 1, false);
        x = model.node("Relu", List.of(x), name + "_b_relu");
        x = convBn(name + "_c", x, width, outChannels, 1, 1, 0, true);
        final String shortcut = inChannels == outChannels && stride == 1
            ? input
            : convBn(name + "_down", input, inChannels, outChannels, 1, stride, 0, false);
        final String sum = model.node("Add", List.of(x, shortcut), name + "_add");
        return model.node("Relu", List.of(sum), name + "_out");
    }

    private String convBn(final String name, final String input, final int inChannels, final int outChannels,
        final int kernel, final int stride, final int pad, final boolean damped)
    {
        final long fanIn = (long) inChannels * kernel * kernel;
        final float bound = (float) Math.sqrt(6.0 / fanIn);
        model.initializer(name + "_w", TensorProto.DataType.FLOAT,
            new long[] {outChannels, inChannels, kernel, kernel},
            weights.uniform(fanIn * outChannels, -bound, bound));
        final String conv = model.node("Conv", List.of(input, name + "_w"), name + "_conv",
            Attributes.ints("kernel_shape", kernel, kernel),
            Attributes.ints("strides", stride, stride),
            Attributes.ints("pads", pad, pad, pad, pad));

        final long[] shape = {outChannels};
        model.initializer(name + "_gamma", TensorProto.DataType.FLOAT, shape,
            damped ? weights.uniform(outChannels, 0.1f, 0.3f) : weights.uniform(outChannels, 0.5f, 1.0f));
        model.initializer(name + "_beta", TensorProto.DataType.FLOAT, shape, weights.uniform(outChannels, -0.1f, 0.1f));
        model.initializer(name + "_mean", TensorProto.DataType.FLOAT, shape, weights.uniform(outChannels, -0.1f, 0.1f));
        model.initializer(name + "_var", TensorProto.DataType.FLOAT, shape, weights.uniform(outChannels, 0.5f, 1.5f));
        return model.node("BatchNormalization",
            List.of(conv, name + "_gamma", name + "_beta", name + "_mean", name + "_var"), name + "_bn",
            Attributes.floatValue("epsilon", BN_EPSILON));
    }
}
