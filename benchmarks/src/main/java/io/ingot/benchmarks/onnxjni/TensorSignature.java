package io.ingot.benchmarks.onnxjni;

import io.ingot.tensor.DataType;

import java.util.Arrays;

/**
 * One input or output of an ONNX model as the model file declares it.
 *
 * @param name     tensor name
 * @param dataType element type, or {@code null} when it has no Triton equivalent
 * @param onnxType ONNX's own name of the element type, for messages
 * @param dims     dimensions, {@code -1} where the size is only known at run time
 * @param dimNames symbolic names of the dimensions ({@code ""} where none), same length as {@code dims}
 */
record TensorSignature(String name, DataType dataType, String onnxType, long[] dims, String[] dimNames)
{
    /** @return the rank. */
    int rank()
    {
        return dims.length;
    }

    /** @return true when the first dimension is dynamic, as a batchable tensor's must be. */
    boolean hasDynamicFirstDim()
    {
        return dims.length > 0 && dims[0] < 0;
    }

    /** @return the dimensions written as Triton writes shapes, {@code [-1,3,224,224]}. */
    String shapeText()
    {
        return Shapes.text(dims);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof TensorSignature that && name.equals(that.name) && dataType == that.dataType
            && Arrays.equals(dims, that.dims) && Arrays.equals(dimNames, that.dimNames);
    }

    @Override
    public int hashCode()
    {
        return name.hashCode() * 31 + Arrays.hashCode(dims);
    }

    @Override
    public String toString()
    {
        return name + ":" + (dataType == null ? onnxType : dataType.name()) + shapeText();
    }
}
