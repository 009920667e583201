package io.ingot.benchmarks.onnxjni;

import java.util.List;

/** Small helpers for shapes: element counts and the text Triton uses in messages. */
final class Shapes
{
    private Shapes()
    {
    }

    /**
     * @param shape a shape without wildcards
     * @return the number of elements
     */
    static long elementCount(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }

    /**
     * @param shape a shape
     * @return {@code [a,b,c]}
     */
    static String text(final long[] shape)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++)
        {
            text.append(i == 0 ? "" : ",").append(shape[i]);
        }
        return text.append(']').toString();
    }

    /**
     * @param shape a shape
     * @return {@code [a,b,c]}
     */
    static String text(final List<Long> shape)
    {
        return text(array(shape));
    }

    /**
     * @param dims      dimensions of a configuration tensor, without the batch dimension
     * @param batchSize the batch size to prepend, or {@code -1} for none
     * @return the full shape
     */
    static long[] withBatch(final List<Long> dims, final long batchSize)
    {
        final int offset = batchSize < 0 ? 0 : 1;
        final long[] shape = new long[dims.size() + offset];
        if (offset == 1)
        {
            shape[0] = batchSize;
        }
        for (int i = 0; i < dims.size(); i++)
        {
            shape[i + offset] = dims.get(i);
        }
        return shape;
    }

    /**
     * Fills the one wildcard ({@code -1}) of a shape so that it holds {@code elements} elements, as a reshape does.
     *
     * @param pattern  a shape with at most one {@code -1}
     * @param elements the element count the shape must have
     * @return a new shape without wildcards (or {@code pattern} itself when it has none)
     * @throws IllegalArgumentException when there are several wildcards or the count does not divide evenly
     */
    static long[] fill(final long[] pattern, final long elements)
    {
        int wildcard = -1;
        long known = 1;
        for (int i = 0; i < pattern.length; i++)
        {
            if (pattern[i] < 0)
            {
                if (wildcard >= 0)
                {
                    throw new IllegalArgumentException("shape " + text(pattern) + " has more than one -1");
                }
                wildcard = i;
            }
            else
            {
                known *= pattern[i];
            }
        }
        if (wildcard < 0)
        {
            return pattern;
        }
        if (known == 0 || elements % known != 0)
        {
            throw new IllegalArgumentException(elements + " elements do not fit shape " + text(pattern));
        }
        final long[] filled = pattern.clone();
        filled[wildcard] = elements / known;
        return filled;
    }

    /**
     * @param list dimensions
     * @return them as an array
     */
    static long[] array(final List<Long> list)
    {
        final long[] dims = new long[list.size()];
        for (int i = 0; i < dims.length; i++)
        {
            dims[i] = list.get(i);
        }
        return dims;
    }
}
