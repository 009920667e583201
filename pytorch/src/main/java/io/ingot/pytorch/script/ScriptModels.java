package io.ingot.pytorch.script;

import java.util.SplittableRandom;

/**
 * TorchScript modules this project ships: the example repository's MLP and the benchmark's larger one. Their weights
 * are seeded, so an archive is the same on every build and a test can compute the expected answer itself. Stateless.
 */
public final class ScriptModels
{
    private ScriptModels()
    {
    }

    /**
     * A two-layer perceptron {@code linear(relu(linear(x, w1, b1)), w2, b2)} over {@code INPUT__0}
     * ({@code [batch, inputs]} FP32), returning {@code [batch, outputs]}. Weights are uniform in
     * ±1/sqrt(fan-in), as {@code torch.nn.Linear} initializes them, drawn from {@code seed}.
     *
     * @param className the class name
     * @param inputs    input features
     * @param hidden    hidden units
     * @param outputs   output features
     * @param seed      the weights' seed
     * @return the module (parameters {@code w1 [hidden, inputs]}, {@code b1 [hidden]}, {@code w2 [outputs, hidden]},
     *         {@code b2 [outputs]})
     */
    public static ScriptModule mlp(final String className, final int inputs, final int hidden, final int outputs,
        final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        return ScriptModule.builder(className)
            .argument("INPUT__0", "Tensor")
            .parameter("w1", uniform(random, new long[] {hidden, inputs}, inputs))
            .parameter("b1", uniform(random, new long[] {hidden}, inputs))
            .parameter("w2", uniform(random, new long[] {outputs, hidden}, hidden))
            .parameter("b2", uniform(random, new long[] {outputs}, hidden))
            .body("hidden = torch.relu(torch.linear(INPUT__0, self.w1, self.b1))",
                "return torch.linear(hidden, self.w2, self.b2)")
            .build();
    }

    private static ScriptTensor uniform(final SplittableRandom random, final long[] shape, final int fanIn)
    {
        final double bound = 1.0 / Math.sqrt(fanIn);
        final int count = Math.toIntExact(java.util.Arrays.stream(shape).reduce(1, Math::multiplyExact));
        final float[] values = new float[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = (float)random.nextDouble(-bound, bound);
        }
        return ScriptTensor.ofFloats(shape, values);
    }
}
