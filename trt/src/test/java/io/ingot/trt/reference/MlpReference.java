package io.ingot.trt.reference;

/** The CPU reference of {@code cublas_mlp}: the same layers in double precision, written independently of it. */
final class MlpReference
{
    private MlpReference()
    {
    }

    /**
     * @param spec   the model
     * @param input  {@code rows x widths[0]} row-major
     * @param rows   rows
     * @return {@code rows x widths[last]} row-major
     */
    static double[] run(final MlpSpec spec, final float[] input, final int rows)
    {
        return run(spec, MlpWeights.generate(spec), input, rows);
    }

    /**
     * @param spec    the model
     * @param weights its weights (generating them is the slow part for wide layers: pass them in when reused)
     * @param input   {@code rows x widths[0]} row-major
     * @param rows    rows
     * @return {@code rows x widths[last]} row-major
     */
    static double[] run(final MlpSpec spec, final MlpWeights weights, final float[] input, final int rows)
    {
        double[] current = new double[input.length];
        for (int i = 0; i < input.length; i++)
        {
            current[i] = input[i];
        }
        for (int layer = 0; layer < spec.layerCount(); layer++)
        {
            final int k = spec.in(layer);
            final int n = spec.out(layer);
            final float[] w = weights.weights(layer);
            final float[] b = weights.biases(layer);
            final double[] next = new double[rows * n];
            for (int r = 0; r < rows; r++)
            {
                for (int j = 0; j < n; j++)
                {
                    double sum = b[j];
                    for (int i = 0; i < k; i++)
                    {
                        sum += current[r * k + i] * w[i * n + j];
                    }
                    next[r * n + j] = sum;
                }
            }
            current = next;
        }
        return current;
    }

    /**
     * @param expected reference values
     * @param actual   computed values
     * @param what     for the message
     */
    static void assertClose(final double[] expected, final float[] actual, final String what)
    {
        if (expected.length != actual.length)
        {
            throw new AssertionError(what + ": " + actual.length + " values, expected " + expected.length);
        }
        for (int i = 0; i < expected.length; i++)
        {
            final double tolerance = 1e-3 * (1 + Math.abs(expected[i]));
            if (Math.abs(expected[i] - actual[i]) > tolerance || Float.isNaN(actual[i]))
            {
                throw new AssertionError(what + ": value " + i + " is " + actual[i] + ", expected " + expected[i]
                    + " (tolerance " + tolerance + ")");
            }
        }
    }
}
