package io.ingot.tensorflow.savedmodel;

import java.util.Arrays;

/**
 * One input or output of a SavedModel signature, as its {@code TensorInfo} declares it.
 *
 * @param name        the signature key: the name Triton (and a client) uses for the tensor
 * @param graphTensor the graph tensor it stands for, {@code "op:index"}: used only to run the graph
 * @param dataType    its {@code DataType} number ({@code DT_FLOAT} = 1, ...; the same numbers as {@code TF_DataType})
 * @param dims        its dimensions, {@code -1} where unknown; empty when the rank is 0 or unknown
 * @param rankKnown   false when the signature gives no shape or an unknown rank
 */
public record SignatureTensor(String name, String graphTensor, int dataType, long[] dims, boolean rankKnown)
{
    /** Copies the dimensions. */
    public SignatureTensor
    {
        dims = dims.clone();
    }

    @Override
    public long[] dims()
    {
        return dims.clone();
    }

    /** @return the number of dimensions the signature gives (0 for a scalar or an unknown shape) */
    public int rank()
    {
        return dims.length;
    }

    /**
     * @param index a dimension index
     * @return that dimension, {@code -1} when unknown
     */
    public long dim(final int index)
    {
        return dims[index];
    }

    /** @return the shape as Triton's TensorFlow backend prints it: {@code [-1,16]} */
    public String shapeText()
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < dims.length; i++)
        {
            text.append(i == 0 ? "" : ",").append(dims[i]);
        }
        return text.append(']').toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof SignatureTensor that && name.equals(that.name) && graphTensor.equals(that.graphTensor)
            && dataType == that.dataType && Arrays.equals(dims, that.dims) && rankKnown == that.rankKnown;
    }

    @Override
    public int hashCode()
    {
        return name.hashCode() * 31 + Arrays.hashCode(dims);
    }

    @Override
    public String toString()
    {
        return name + " (" + graphTensor + ", " + DataTypes.name(dataType) + " " + shapeText() + ")";
    }
}
