package io.ingot.pytorch.script;

import io.ingot.tensor.DataType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A dense tensor stored in a TorchScript archive: its element type, shape and little-endian contents (row-major).
 *
 * @param dataType the element type (one a TorchScript storage exists for)
 * @param shape    the shape
 * @param data     the contents, {@code elementCount * elementSize} bytes, little-endian
 */
public record ScriptTensor(DataType dataType, long[] shape, byte[] data)
{
    /**
     * @throws IllegalArgumentException when the contents do not match the shape
     */
    public ScriptTensor
    {
        shape = shape.clone();
        final long expected = Arrays.stream(shape).reduce(1, Math::multiplyExact) * dataType.byteSize();
        if (data.length != expected)
        {
            throw new IllegalArgumentException("a " + dataType + " tensor of shape " + Arrays.toString(shape)
                + " holds " + expected + " bytes, not " + data.length);
        }
    }

    /**
     * @param shape  the shape
     * @param values the values, row-major
     * @return an FP32 tensor
     */
    public static ScriptTensor ofFloats(final long[] shape, final float... values)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            bytes.putFloat(value);
        }
        return new ScriptTensor(DataType.FP32, shape, bytes.array());
    }

    /** @return the number of elements. */
    public long elementCount()
    {
        return Arrays.stream(shape).reduce(1, Math::multiplyExact);
    }

    /** @return the row-major (contiguous) strides of the shape, in elements. */
    public long[] strides()
    {
        final long[] strides = new long[shape.length];
        long stride = 1;
        for (int i = shape.length - 1; i >= 0; i--)
        {
            strides[i] = stride;
            stride *= shape[i];
        }
        return strides;
    }

    @Override
    public long[] shape()
    {
        return shape.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ScriptTensor that && dataType == that.dataType && Arrays.equals(shape, that.shape)
            && Arrays.equals(data, that.data);
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * dataType.hashCode() + Arrays.hashCode(shape)) + Arrays.hashCode(data);
    }

    @Override
    public String toString()
    {
        return dataType + Arrays.toString(shape);
    }
}
