package io.ingot.benchmarks.onnxjni;

import io.ingot.config.proto.ModelInput;

/**
 * How one configured input reaches ONNX Runtime: the batch's shape as is, the configured {@code reshape} (its one
 * {@code -1} filled from the element count), or the empty shape of a scalar model input.
 */
final class InputBinding
{
    private static final long[] SCALAR = new long[0];

    private final String name;
    private final long[] reshape;
    private final boolean scalar;
    private final boolean batching;

    /**
     * @param input    the configured input
     * @param model    the model's declaration of it
     * @param batching whether the model batches ({@code max_batch_size > 0})
     */
    InputBinding(final ModelInput input, final TensorSignature model, final boolean batching)
    {
        this.name = input.getName();
        this.reshape = input.hasReshape() ? Shapes.array(input.getReshape().getShapeList()) : null;
        this.scalar = model.rank() == 0;
        this.batching = batching;
    }

    /** @return the input's name. */
    String name()
    {
        return name;
    }

    /**
     * @param batchShape the input's shape in the batch (with the batch dimension when batching)
     * @return the shape ONNX Runtime is given
     */
    long[] onnxShape(final long[] batchShape)
    {
        if (reshape != null)
        {
            final long[] pattern = new long[reshape.length + (batching ? 1 : 0)];
            if (batching)
            {
                pattern[0] = batchShape[0];
            }
            System.arraycopy(reshape, 0, pattern, batching ? 1 : 0, reshape.length);
            return Shapes.fill(pattern, Shapes.elementCount(batchShape));
        }
        return scalar ? SCALAR : batchShape;
    }
}
