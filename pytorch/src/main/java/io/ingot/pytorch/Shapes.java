package io.ingot.pytorch;

import java.util.Arrays;

/**
 * Shapes between the configuration and the model: a configured {@code reshape} is the model's view of a tensor
 * (after the batch dimension), {@code dims} the clients' view; a {@code -1} in either is filled from the element
 * count. Stateless.
 */
final class Shapes
{
    private Shapes()
    {
    }

    /**
     * @param batchShape the input's shape in the batch (with the batch dimension when batching)
     * @param reshape    the configured reshape, or {@code null}
     * @param batching   whether the model batches
     * @return the shape {@code forward} is given
     */
    static long[] modelShape(final long[] batchShape, final long[] reshape, final boolean batching)
    {
        if (reshape == null)
        {
            return batchShape;
        }
        return fill(withBatch(reshape, batching ? batchShape[0] : -1), elementCount(batchShape));
    }

    /**
     * @param modelShape the shape {@code forward} returned
     * @param dims       the configured dims
     * @param reshape    the configured reshape, or {@code null}
     * @param batching   whether the model batches
     * @return the shape the response carries
     */
    static long[] configShape(final long[] modelShape, final long[] dims, final long[] reshape,
        final boolean batching)
    {
        if (reshape == null)
        {
            return modelShape;
        }
        return fill(withBatch(dims, batching && modelShape.length > 0 ? modelShape[0] : -1), elementCount(modelShape));
    }

    /**
     * @param shape    a shape the response would carry
     * @param dims     the configured dims ({@code -1}: any size)
     * @param batching whether the shape starts with the batch dimension
     * @return whether the shape fits the dims
     */
    static boolean fits(final long[] shape, final long[] dims, final boolean batching)
    {
        final int offset = batching ? 1 : 0;
        if (shape.length != dims.length + offset)
        {
            return false;
        }
        for (int i = 0; i < dims.length; i++)
        {
            if (dims[i] >= 0 && dims[i] != shape[i + offset])
            {
                return false;
            }
        }
        return true;
    }

    static long elementCount(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }

    static String text(final long[] shape)
    {
        return Arrays.toString(shape).replace(" ", "");
    }

    private static long[] withBatch(final long[] dims, final long batchSize)
    {
        if (batchSize < 0)
        {
            return dims.clone();
        }
        final long[] shape = new long[dims.length + 1];
        shape[0] = batchSize;
        System.arraycopy(dims, 0, shape, 1, dims.length);
        return shape;
    }

    /** Fills the one {@code -1} of {@code pattern} so that it holds {@code elements} elements. */
    private static long[] fill(final long[] pattern, final long elements)
    {
        int wildcard = -1;
        long known = 1;
        for (int i = 0; i < pattern.length; i++)
        {
            if (pattern[i] >= 0)
            {
                known = Math.multiplyExact(known, pattern[i]);
            }
            else if (wildcard < 0)
            {
                wildcard = i;
            }
            else
            {
                throw new IllegalArgumentException("reshape " + text(pattern) + " has more than one -1");
            }
        }
        if (wildcard >= 0)
        {
            if (known == 0 || elements % known != 0)
            {
                throw new IllegalArgumentException(elements + " elements do not fit shape " + text(pattern));
            }
            pattern[wildcard] = elements / known;
        }
        else if (known != elements)
        {
            throw new IllegalArgumentException(elements + " elements do not fit shape " + text(pattern));
        }
        return pattern;
    }
}
