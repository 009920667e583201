package io.ingot.scheduler;

import org.agrona.collections.Long2ObjectHashMap;

import java.util.HashMap;

/**
 * Sequences by correlation ID, where an ID is an unsigned 64-bit number or a string and the two kinds never meet
 * (the number 5 and the string "5" are two sequences, as in Triton). Numeric IDs use a primitive-keyed map, so
 * looking one up allocates nothing. Owned by the holder of the batching role; not thread-safe.
 *
 * @param <T> what an ID maps to
 */
final class CorrelationMap<T>
{
    private final Long2ObjectHashMap<T> numeric = new Long2ObjectHashMap<>();
    private final HashMap<String, T> text = new HashMap<>();

    /**
     * @param request a request of a sequence
     * @return what its ID maps to, or {@code null}
     */
    T get(final PendingRequest request)
    {
        return get(request.correlationId, request.correlationKey);
    }

    /**
     * @param id  the numeric ID (ignored when {@code key} is set)
     * @param key the string ID, or {@code null} for a numeric one
     * @return what the ID maps to, or {@code null}
     */
    T get(final long id, final String key)
    {
        return key != null ? text.get(key) : numeric.get(id);
    }

    /**
     * @param request a request of a sequence
     * @param value   what its ID now maps to
     */
    void put(final PendingRequest request, final T value)
    {
        put(request.correlationId, request.correlationKey, value);
    }

    /**
     * @param id    the numeric ID (ignored when {@code key} is set)
     * @param key   the string ID, or {@code null} for a numeric one
     * @param value what the ID now maps to
     */
    void put(final long id, final String key, final T value)
    {
        if (key != null)
        {
            text.put(key, value);
        }
        else
        {
            numeric.put(id, value);
        }
    }

    /**
     * Forgets an ID, if it maps to the given value (a newer sequence under the same ID keeps its mapping).
     *
     * @param id    the numeric ID (ignored when {@code key} is set)
     * @param key   the string ID, or {@code null} for a numeric one
     * @param value the value the ID should map to
     */
    void remove(final long id, final String key, final T value)
    {
        if (key != null)
        {
            text.remove(key, value);
        }
        else if (numeric.get(id) == value)
        {
            numeric.remove(id);
        }
    }

    /** @return the number of IDs mapped */
    int size()
    {
        return numeric.size() + text.size();
    }
}
