package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The input tensors of one {@link InferenceRequest}: name, element type, shape and data of each, in the order added,
 * in parallel arrays that grow by doubling and are then reused, so that a request refilled with the same number of
 * inputs allocates nothing (a shape array is kept per slot and replaced only when a longer shape arrives).
 *
 * <p>Contract: shapes are copied when added; data segments are views, held by reference and never freed. Indexes are
 * checked, with {@link IndexOutOfBoundsException} naming the index and the count. The owning request checks that it is
 * idle before it calls a mutator.
 *
 * <p>Threads: not thread-safe; it follows its request's hand-off (the filling thread, then the core's threads while
 * the request is in flight).
 */
final class RequestInputTable
{
    private static final int INITIAL_CAPACITY = 4;

    private int count;
    private String[] names = new String[INITIAL_CAPACITY];
    private DataType[] types = new DataType[INITIAL_CAPACITY];
    private long[][] shapes = new long[INITIAL_CAPACITY][];
    private int[] ranks = new int[INITIAL_CAPACITY];
    private MemorySegment[] data = new MemorySegment[INITIAL_CAPACITY];

    /**
     * Appends an input.
     *
     * @param name     the input's name
     * @param dataType its element type
     * @param shape    its shape (copied)
     * @param bytes    its memory (held by reference)
     */
    void add(final String name, final DataType dataType, final long[] shape, final MemorySegment bytes)
    {
        if (count == names.length)
        {
            final int capacity = count * 2;
            names = Arrays.copyOf(names, capacity);
            types = Arrays.copyOf(types, capacity);
            shapes = Arrays.copyOf(shapes, capacity);
            ranks = Arrays.copyOf(ranks, capacity);
            data = Arrays.copyOf(data, capacity);
        }
        final int i = count++;
        names[i] = name;
        types[i] = dataType;
        long[] stored = shapes[i];
        if (stored == null || stored.length < shape.length)
        {
            // Room for the common ranks at once, so that a refill with a slightly longer shape does not reallocate.
            stored = new long[Math.max(shape.length, 4)];
            shapes[i] = stored;
        }
        System.arraycopy(shape, 0, stored, 0, shape.length);
        ranks[i] = shape.length;
        data[i] = bytes;
    }

    /** Removes every input, dropping the references to their memory (the shape arrays stay for reuse). */
    void clear()
    {
        for (int i = 0; i < count; i++)
        {
            data[i] = null;
        }
        count = 0;
    }

    /** @return the number of inputs */
    int count()
    {
        return count;
    }

    /**
     * @param index input index
     * @return its name
     */
    String name(final int index)
    {
        return names[check(index)];
    }

    /**
     * @param index input index
     * @return its element type
     */
    DataType dataType(final int index)
    {
        return types[check(index)];
    }

    /**
     * @param index input index
     * @return the rank of its shape
     */
    int rank(final int index)
    {
        return ranks[check(index)];
    }

    /**
     * @param index     input index
     * @param dimension dimension index
     * @return the size of that dimension
     */
    long dim(final int index, final int dimension)
    {
        check(index);
        if (dimension < 0 || dimension >= ranks[index])
        {
            throw new IndexOutOfBoundsException("dimension " + dimension + " of input '" + names[index]
                + "' with rank " + ranks[index]);
        }
        return shapes[index][dimension];
    }

    /**
     * @param index input index
     * @return a copy of its shape
     */
    long[] shape(final int index)
    {
        check(index);
        return Arrays.copyOf(shapes[index], ranks[index]);
    }

    /**
     * @param index input index
     * @return its memory
     */
    MemorySegment data(final int index)
    {
        return data[check(index)];
    }

    private int check(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("input " + index + " of " + count);
        }
        return index;
    }
}
