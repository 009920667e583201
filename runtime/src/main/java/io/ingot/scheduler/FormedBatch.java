package io.ingot.scheduler;

/**
 * The requests a {@link BatchPolicy} chose for one execution, in queue order, or the time the policy wants to be
 * asked again. Each instance owns one and reuses it for every batch: the policy fills it on the thread that holds the
 * batching role, and the instance executes it on its own thread after the role's hand-over. Not thread-safe.
 */
public final class FormedBatch
{
    private PendingRequest[] requests;
    private int count;
    private int batchSize;
    private long waitUntilNs;

    /**
     * @param capacity the most requests a batch may hold (the model's {@code max(1, max_batch_size)})
     */
    public FormedBatch(final int capacity)
    {
        requests = new PendingRequest[Math.max(1, capacity)];
    }

    /** Empties the batch (references dropped) before the policy fills it again. */
    public void clear()
    {
        for (int i = 0; i < count; i++)
        {
            requests[i] = null;
        }
        count = 0;
        batchSize = 0;
        waitUntilNs = 0;
    }

    /**
     * Appends a request (policy only).
     *
     * @param request the request, in queue order
     */
    public void add(final PendingRequest request)
    {
        if (count == requests.length)
        {
            requests = java.util.Arrays.copyOf(requests, count * 2);
        }
        requests[count++] = request;
        batchSize += request.batchSize;
    }

    /** @return the number of requests */
    public int count()
    {
        return count;
    }

    /**
     * @param index request index, {@code 0 <= index < count()}
     * @return the request
     */
    public PendingRequest get(final int index)
    {
        return requests[index];
    }

    /** @return the total batch size: the sum of the requests' batch sizes */
    public int batchSize()
    {
        return batchSize;
    }

    /** @return after {@link BatchPolicy#WAIT}: when the policy wants to be asked again */
    public long waitUntilNs()
    {
        return waitUntilNs;
    }

    /**
     * Records when the policy wants to be asked again (policy only).
     *
     * @param deadlineNs the time, on the policy's clock
     */
    public void waitUntil(final long deadlineNs)
    {
        waitUntilNs = deadlineNs;
    }
}
