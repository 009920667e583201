package io.ingot.api;

import java.util.Arrays;

/**
 * The custom parameters of one {@link InferenceRequest} (Triton's request parameters), as key/value pairs in the
 * order added, in arrays that grow by doubling and are then reused, so that a refilled request allocates nothing.
 *
 * <p>Contract: a value is a {@link String}, {@link Long}, {@link Boolean} or {@link Double} (Triton's parameter types),
 * else {@link IllegalArgumentException}; keys are not checked for duplicates (the backend sees them as added). Indexes
 * are checked. The owning request checks that it is idle before it calls a mutator.
 *
 * <p>Threads: not thread-safe; it follows its request's hand-off.
 */
final class RequestParameterTable
{
    private static final int INITIAL_CAPACITY = 4;

    private int count;
    private String[] names = new String[INITIAL_CAPACITY];
    private Object[] values = new Object[INITIAL_CAPACITY];

    /**
     * Appends a parameter.
     *
     * @param name  the key
     * @param value its value
     * @throws IllegalArgumentException for a value of another type, or a {@code null} name
     */
    void add(final String name, final Object value)
    {
        if (name == null || !(value instanceof String || value instanceof Long || value instanceof Boolean
            || value instanceof Double))
        {
            throw new IllegalArgumentException("request parameter '" + name + "' must have a name and a String, Long, "
                + "Boolean or Double value, got " + (value == null ? "null" : value.getClass().getSimpleName()));
        }
        if (count == names.length)
        {
            names = Arrays.copyOf(names, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        names[count] = name;
        values[count++] = value;
    }

    /** Removes every parameter, dropping the references to their values. */
    void clear()
    {
        Arrays.fill(values, 0, count, null);
        count = 0;
    }

    /** @return the number of parameters */
    int count()
    {
        return count;
    }

    /**
     * @param index a parameter index
     * @return its key
     */
    String name(final int index)
    {
        return names[check(index)];
    }

    /**
     * @param index a parameter index
     * @return its value
     */
    Object value(final int index)
    {
        return values[check(index)];
    }

    private int check(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("parameter " + index + " of " + count);
        }
        return index;
    }
}
