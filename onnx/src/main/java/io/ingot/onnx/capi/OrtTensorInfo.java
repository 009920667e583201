package io.ingot.onnx.capi;

import java.util.Arrays;

/**
 * One input or output of a session as ONNX Runtime describes it.
 *
 * @param name        its name
 * @param onnxType    its {@code ONNXType} ({@link OrtApi#ONNX_TYPE_TENSOR} for a tensor)
 * @param elementType its {@code ONNXTensorElementDataType} ({@code 0} when not a tensor)
 * @param dims        its dimensions, {@code -1} where only the run knows the size (empty when not a tensor)
 * @param dimNames    the symbolic names of the dimensions, {@code ""} where none (same length as {@code dims})
 */
public record OrtTensorInfo(String name, int onnxType, int elementType, long[] dims, String[] dimNames)
{
    /** @return true when it is a tensor */
    public boolean isTensor()
    {
        return onnxType == OrtApi.ONNX_TYPE_TENSOR;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof OrtTensorInfo that && name.equals(that.name) && onnxType == that.onnxType
            && elementType == that.elementType && Arrays.equals(dims, that.dims)
            && Arrays.equals(dimNames, that.dimNames);
    }

    @Override
    public int hashCode()
    {
        return name.hashCode() * 31 + Arrays.hashCode(dims);
    }

    @Override
    public String toString()
    {
        return name + ":" + elementType + Arrays.toString(dims);
    }
}
