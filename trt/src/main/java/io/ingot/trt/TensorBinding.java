package io.ingot.trt;

import io.ingot.tensor.DataType;
import io.ingot.trt.shim.EngineTensor;
import io.ingot.trt.shim.Shapes;

/**
 * How one engine I/O tensor is served: its configuration (when {@code config.pbtxt} names it), its element type
 * and how request shapes map to engine shapes and back.
 *
 * <p>A request shape is the configuration's view: {@code [batch] + dims} for a batching model, {@code dims}
 * otherwise. The engine sees {@code reshape} instead of {@code dims} where the configuration gives one; the bytes
 * are the same.
 *
 * @param engineTensor what the engine says about the tensor
 * @param configured   true when {@code config.pbtxt} lists the tensor (an unlisted output is computed and dropped)
 * @param dataType     the served element type ({@code null} only for an unlisted output of a type Triton lacks)
 * @param dims         configured dims without the batch dimension ({@code null} when not configured)
 * @param reshape      the engine-side dims without the batch dimension when the configuration reshapes, else
 *                     {@code null}
 * @param batching     true when the model batches (a leading batch dimension on both sides)
 */
public record TensorBinding(EngineTensor engineTensor, boolean configured, DataType dataType, long[] dims,
    long[] reshape, boolean batching)
{
    /** Copies the arrays. */
    public TensorBinding
    {
        dims = dims == null ? null : dims.clone();
        reshape = reshape == null ? null : reshape.clone();
    }

    /** @return the tensor's name */
    public String name()
    {
        return engineTensor.name();
    }

    /** @return true for an input */
    public boolean isInput()
    {
        return engineTensor.isInput();
    }

    /** @return bytes per element when sizing device buffers */
    public int storageBytes()
    {
        return engineTensor.dataType().storageBytes();
    }

    /**
     * Maps a request shape to the engine shape, writing into {@code out}.
     *
     * @param shape request shape (with the batch dimension when the model batches)
     * @param rank  the request rank
     * @param out   receives the engine shape (at least 8 long)
     * @return the engine rank
     */
    public int toEngineShape(final long[] shape, final int rank, final long[] out)
    {
        if (reshape == null)
        {
            System.arraycopy(shape, 0, out, 0, rank);
            return rank;
        }
        int engineRank = 0;
        if (batching)
        {
            out[engineRank++] = shape[0];
        }
        long known = 1;
        int wildcard = -1;
        for (final long dim : reshape)
        {
            if (dim < 0)
            {
                wildcard = engineRank;
            }
            else
            {
                known *= dim;
            }
            out[engineRank++] = dim;
        }
        if (wildcard >= 0)
        {
            // One -1 in a reshape takes whatever the request's element count leaves for it.
            final long elements = Shapes.volume(shape, rank) / (batching ? Math.max(1, shape[0]) : 1);
            out[wildcard] = known == 0 ? 0 : elements / known;
        }
        return engineRank;
    }

    /**
     * Maps an engine output shape to the response shape.
     *
     * @param engineShape resolved engine dimensions
     * @param rank        the engine rank
     * @return the response shape (a new array: it is handed to the batch)
     */
    public long[] toResponseShape(final long[] engineShape, final int rank)
    {
        if (reshape == null)
        {
            return java.util.Arrays.copyOf(engineShape, rank);
        }
        final int offset = batching ? 1 : 0;
        final long[] shape = new long[dims.length + offset];
        if (batching)
        {
            shape[0] = engineShape[0];
        }
        long known = 1;
        int wildcard = -1;
        for (int i = 0; i < dims.length; i++)
        {
            shape[i + offset] = dims[i];
            if (dims[i] < 0)
            {
                wildcard = i + offset;
            }
            else
            {
                known *= dims[i];
            }
        }
        if (wildcard >= 0)
        {
            // The engine's element count fixes the one wildcard a reshaped output may have.
            final long elements = Shapes.volume(engineShape, rank) / (batching ? Math.max(1, engineShape[0]) : 1);
            shape[wildcard] = known == 0 ? 0 : elements / known;
        }
        return shape;
    }
}
