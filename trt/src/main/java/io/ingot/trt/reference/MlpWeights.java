package io.ingot.trt.reference;

import java.util.SplittableRandom;

/**
 * The weights of a {@code cublas_mlp} model, derived from its seed alone so that any process (a test's CPU
 * reference, another instance) can rebuild them: layer {@code l}'s weights are {@code in x out} row-major and its
 * biases {@code out}, all drawn uniformly from {@code [-1/sqrt(in), 1/sqrt(in))} by a {@link SplittableRandom}
 * seeded with {@code seed} and split once per layer in order (weights first, then biases). The scale keeps
 * activations of order one through any depth.
 */
public final class MlpWeights
{
    private final float[][] weights;
    private final float[][] biases;

    private MlpWeights(final float[][] weights, final float[][] biases)
    {
        this.weights = weights;
        this.biases = biases;
    }

    /**
     * @param spec the model's widths and seed
     * @return its weights
     */
    public static MlpWeights generate(final MlpSpec spec)
    {
        final SplittableRandom root = new SplittableRandom(spec.seed());
        final float[][] weights = new float[spec.layerCount()][];
        final float[][] biases = new float[spec.layerCount()][];
        for (int layer = 0; layer < spec.layerCount(); layer++)
        {
            final SplittableRandom random = root.split();
            final int in = spec.in(layer);
            final int out = spec.out(layer);
            final double scale = 1.0 / Math.sqrt(in);
            weights[layer] = new float[Math.multiplyExact(in, out)];
            for (int i = 0; i < weights[layer].length; i++)
            {
                weights[layer][i] = (float) ((random.nextDouble() * 2 - 1) * scale);
            }
            biases[layer] = new float[out];
            for (int i = 0; i < out; i++)
            {
                biases[layer][i] = (float) ((random.nextDouble() * 2 - 1) * scale);
            }
        }
        return new MlpWeights(weights, biases);
    }

    /**
     * @param layer a layer index
     * @return its {@code in x out} row-major weights (the array itself: do not modify)
     */
    public float[] weights(final int layer)
    {
        return weights[layer];
    }

    /**
     * @param layer a layer index
     * @return its biases (the array itself: do not modify)
     */
    public float[] biases(final int layer)
    {
        return biases[layer];
    }
}
