package io.ingot.instance;

import io.ingot.tensor.DataType;

import java.util.Arrays;

/**
 * The checks an engine's output allocation gets, whether it writes a batch's output ({@link AssembledBatch}) or one
 * response of a decoupled model ({@link RequestResponseSender}): the same rules and messages for both.
 */
final class OutputSizes
{
    private OutputSizes()
    {
    }

    /**
     * @return the byte size of a fixed-size output of that shape
     * @throws IllegalArgumentException for a {@code BYTES} output or a negative dimension
     */
    static long fixedByteSize(final String model, final String name, final DataType type, final long[] shape)
    {
        if (type == DataType.BYTES)
        {
            throw new IllegalArgumentException("output '" + name + "' of model '" + model
                + "' is BYTES: use allocateOutput(name, shape, byteSize)");
        }
        long elements = 1;
        for (final long dim : shape)
        {
            if (dim < 0)
            {
                throw new IllegalArgumentException("output '" + name + "' of model '" + model
                    + "' has a negative dimension in shape " + Arrays.toString(shape));
            }
            elements = Math.multiplyExact(elements, dim);
        }
        return elements * type.byteSize();
    }

    /**
     * @return {@code byteSize}, checked
     * @throws IllegalArgumentException for a negative size
     */
    static long checkedByteSize(final String name, final long byteSize)
    {
        if (byteSize < 0)
        {
            throw new IllegalArgumentException("output '" + name + "' byte size must be >= 0, was " + byteSize);
        }
        return byteSize;
    }
}
