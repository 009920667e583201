package io.ingot.trt.shim;

import java.util.Objects;

/**
 * One I/O tensor of a deserialized engine, as TensorRT describes it.
 *
 * @param name        the tensor's name
 * @param mode        input or output
 * @param dataType    element type
 * @param format      memory layout
 * @param shapeTensor true when its values feed shape inference (a shape tensor)
 * @param shape       engine-level dimensions; {@code -1} marks a dynamic one
 */
public record EngineTensor(String name, TensorIoMode mode, TrtDataType dataType, TrtTensorFormat format,
    boolean shapeTensor, long[] shape)
{
    /** Validates and copies the shape. */
    public EngineTensor
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(dataType, "dataType");
        Objects.requireNonNull(format, "format");
        shape = shape.clone();
    }

    /** @return a copy of the dimensions */
    @Override
    public long[] shape()
    {
        return shape.clone();
    }

    /** @return the number of dimensions */
    public int rank()
    {
        return shape.length;
    }

    /**
     * @param index dimension index
     * @return that dimension ({@code -1} when dynamic)
     */
    public long dim(final int index)
    {
        return shape[index];
    }

    /** @return true when some dimension is dynamic */
    public boolean isDynamic()
    {
        return Shapes.isDynamic(shape, shape.length);
    }

    /** @return true for an input */
    public boolean isInput()
    {
        return mode == TensorIoMode.INPUT;
    }

    @Override
    public String toString()
    {
        return (isInput() ? "input " : "output ") + name + " " + dataType.trtName() + " " + Shapes.format(shape)
            + (format == TrtTensorFormat.LINEAR ? "" : " format=" + format) + (shapeTensor ? " shape-tensor" : "");
    }
}
