package io.ingot.scheduler;

import java.util.Arrays;

/**
 * A double-ended queue of requests with indexed access, over a growable circular array. Not thread-safe: owned by the
 * holder of the model's batching role, like the policy it belongs to; allocates only when it grows.
 */
final class RequestDeque
{
    private PendingRequest[] elements = new PendingRequest[16];
    private int head;
    private int size;

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    PendingRequest get(final int index)
    {
        return elements[(head + index) & (elements.length - 1)];
    }

    void addLast(final PendingRequest request)
    {
        if (size == elements.length)
        {
            grow();
        }
        elements[(head + size) & (elements.length - 1)] = request;
        size++;
    }

    PendingRequest peekFirst()
    {
        return size == 0 ? null : elements[head];
    }

    PendingRequest pollFirst()
    {
        if (size == 0)
        {
            return null;
        }
        final PendingRequest first = elements[head];
        elements[head] = null;
        head = (head + 1) & (elements.length - 1);
        size--;
        return first;
    }

    /** Removes the element at {@code index}, shifting the later ones forward. */
    PendingRequest removeAt(final int index)
    {
        final int mask = elements.length - 1;
        final PendingRequest removed = get(index);
        for (int i = index; i < size - 1; i++)
        {
            elements[(head + i) & mask] = elements[(head + i + 1) & mask];
        }
        elements[(head + size - 1) & mask] = null;
        size--;
        return removed;
    }

    private void grow()
    {
        final PendingRequest[] bigger = new PendingRequest[elements.length * 2];
        for (int i = 0; i < size; i++)
        {
            bigger[i] = get(i);
        }
        Arrays.fill(elements, null);
        elements = bigger;
        head = 0;
    }
}
