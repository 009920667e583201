package io.ingot.api;

import java.util.Arrays;

/**
 * The outputs one {@link InferenceRequest} asks for by name, in the order asked, in an array that grows by doubling
 * and is then reused, so that a refilled request allocates nothing. Empty means every output of the model.
 *
 * <p>Contract: names are not checked here (the core checks them against the model at submission); indexes are. The
 * owning request checks that it is idle before it calls a mutator. Threads: not thread-safe; it follows its request's
 * hand-off.
 */
final class RequestedOutputList
{
    private static final int INITIAL_CAPACITY = 4;

    private int count;
    private String[] names = new String[INITIAL_CAPACITY];

    /** @param name an output's name, appended */
    void add(final String name)
    {
        if (count == names.length)
        {
            names = Arrays.copyOf(names, count * 2);
        }
        names[count++] = name;
    }

    /** Removes every name (the array stays for reuse; names are strings the caller keeps anyway). */
    void clear()
    {
        count = 0;
    }

    /** @return how many outputs were asked for */
    int count()
    {
        return count;
    }

    /**
     * @param index a requested-output index
     * @return its name
     */
    String name(final int index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("requested output " + index + " of " + count);
        }
        return names[index];
    }
}
