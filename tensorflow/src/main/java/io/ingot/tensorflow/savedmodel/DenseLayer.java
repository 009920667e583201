package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One dense layer, {@code y = x · W + b}: what {@link ExampleSavedModels} writes into a graph as constants
 * ({@code MatMul} then {@code AddV2}), and the same map computed in Java, so that a caller can check what TensorFlow
 * answers. Immutable once built (the arrays are not handed out); thread-safe.
 *
 * @param inputs  the input width
 * @param outputs the output width
 * @param weights {@code W}, {@code [inputs, outputs]} row-major
 * @param bias    {@code b}, {@code [outputs]}
 */
public record DenseLayer(int inputs, int outputs, float[] weights, float[] bias)
{
    /** Checks the shapes. */
    public DenseLayer
    {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(bias, "bias");
        if (inputs <= 0 || outputs <= 0 || weights.length != (long) inputs * outputs || bias.length != outputs)
        {
            throw new IllegalArgumentException("a dense layer of " + inputs + " x " + outputs + " needs "
                + (long) inputs * outputs + " weights and " + outputs + " biases, got " + weights.length + " and "
                + bias.length);
        }
        weights = weights.clone();
        bias = bias.clone();
    }

    /**
     * Weights and biases drawn uniform in +-1/sqrt(inputs), as Keras' default initializers scale them.
     *
     * @param inputs  the input width
     * @param outputs the output width
     * @param random  the source, weights first (row-major), then biases
     * @return the layer
     */
    public static DenseLayer seeded(final int inputs, final int outputs, final SplittableRandom random)
    {
        final double bound = 1 / Math.sqrt(inputs);
        final float[] weights = new float[inputs * outputs];
        for (int i = 0; i < weights.length; i++)
        {
            weights[i] = (float) random.nextDouble(-bound, bound);
        }
        final float[] bias = new float[outputs];
        for (int i = 0; i < outputs; i++)
        {
            bias[i] = (float) random.nextDouble(-bound, bound);
        }
        return new DenseLayer(inputs, outputs, weights, bias);
    }

    /** @return a copy of {@code W} */
    @Override
    public float[] weights()
    {
        return weights.clone();
    }

    /** @return a copy of {@code b} */
    @Override
    public float[] bias()
    {
        return bias.clone();
    }

    /**
     * Adds this layer to a graph.
     *
     * @param graph the graph
     * @param name  the layer's name (its nodes are named after it)
     * @param input the node that feeds it, {@code [-1, inputs]} FP32
     * @return the node of its output, {@code [-1, outputs]} FP32
     */
    String addTo(final GraphBuilder graph, final String name, final String input)
    {
        final String product = graph.matMul(name + "/MatMul", input,
            graph.constant(name + "/kernel", new long[] {inputs, outputs}, weights), DataType.FP32);
        return graph.binary("AddV2", name + "/BiasAdd", product,
            graph.constant(name + "/bias", new long[] {outputs}, bias), DataType.FP32);
    }

    /**
     * @param row one input row, {@code inputs} long
     * @return {@code row · W + b}, accumulated in {@code float} in the order TensorFlow's CPU kernel need not follow
     *         (compare with a tolerance)
     */
    public float[] apply(final float[] row)
    {
        if (row.length != inputs)
        {
            throw new IllegalArgumentException("the layer takes " + inputs + " values, got " + row.length);
        }
        final float[] result = bias.clone();
        for (int i = 0; i < inputs; i++)
        {
            for (int j = 0; j < outputs; j++)
            {
                result[j] += row[i] * weights[i * outputs + j];
            }
        }
        return result;
    }
}
