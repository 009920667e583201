package io.ingot.onnx;

import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelInput;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How one input reaches ONNX Runtime: its name as a C string, its element type, and its shape: the batch's shape as
 * is, the configured {@code reshape} (its one {@code -1} filled from the element count), or the empty shape of a scalar
 * model input. Used by one engine's thread; the shape is written into the engine's scratch without allocating.
 */
final class InputBinding
{
    private final String name;
    private final MemorySegment cName;
    private final DataType dataType;
    private final int onnxType;
    private final long[] reshape;
    private final boolean scalar;
    private final boolean batching;
    private long[] pattern;

    /**
     * @param input    the configured input (or control, or state)
     * @param model    the model's declaration of it
     * @param batching whether the model batches ({@code max_batch_size > 0})
     * @param cName    its name as a C string, valid as long as this binding
     */
    InputBinding(final ModelInput input, final TensorSignature model, final boolean batching,
        final MemorySegment cName)
    {
        this.name = input.getName();
        this.cName = cName;
        this.dataType = DataType.fromConfigNumber(input.getDataTypeValue());
        this.onnxType = OnnxTypes.toOnnx(dataType);
        this.reshape = input.hasReshape() ? Shapes.array(input.getReshape().getShapeList()) : null;
        this.scalar = model.rank() == 0;
        this.batching = batching;
        this.pattern = reshape == null ? null : new long[reshape.length + (batching ? 1 : 0)];
    }

    /** @return the input's name. */
    String name()
    {
        return name;
    }

    /** @return the name as a C string. */
    MemorySegment cName()
    {
        return cName;
    }

    /** @return its element type. */
    DataType dataType()
    {
        return dataType;
    }

    /** @return its {@code ONNXTensorElementDataType}. */
    int onnxType()
    {
        return onnxType;
    }

    /**
     * Writes the shape ONNX Runtime is given.
     *
     * @param input the input in the batch (with the batch dimension when batching)
     * @param shape scratch of at least {@link #maxRank} {@code int64_t}s
     * @return the rank written
     */
    int writeShape(final BatchInput input, final MemorySegment shape)
    {
        if (scalar)
        {
            return 0;
        }
        final int rank = input.rank();
        if (reshape == null)
        {
            for (int d = 0; d < rank; d++)
            {
                shape.setAtIndex(ValueLayout.JAVA_LONG, d, input.dim(d));
            }
            return rank;
        }
        long elements = 1;
        for (int d = 0; d < rank; d++)
        {
            elements = Math.multiplyExact(elements, input.dim(d));
        }
        if (batching)
        {
            pattern[0] = input.dim(0);
        }
        System.arraycopy(reshape, 0, pattern, batching ? 1 : 0, reshape.length);
        final long[] filled = Shapes.fill(pattern, elements);
        for (int d = 0; d < filled.length; d++)
        {
            shape.setAtIndex(ValueLayout.JAVA_LONG, d, filled[d]);
        }
        return filled.length;
    }

    /**
     * @param inputRank the rank the batch gives the input
     * @return the most dimensions {@link #writeShape} writes for it
     */
    int maxRank(final int inputRank)
    {
        return Math.max(inputRank, pattern == null ? 0 : pattern.length);
    }
}
