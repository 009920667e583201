package io.ingot.scheduler;

/**
 * The requests a {@link BatchPolicy} chose for one execution, in queue order, or the time the policy wants to be
 * asked again. Each instance owns one and reuses it for every batch: the policy fills it on the thread that holds the
 * batching role, and the instance executes it on its own thread after the role's hand-over. Not thread-safe.
 */
public final class FormedBatch
{
    private PendingRequest[] requests;
    private int[] controls;
    private int[] slots;
    private int count;
    private int batchSize;
    private long waitUntilNs;
    private int yieldTo = -1;

    /**
     * @param capacity the most requests a batch may hold (the model's {@code max(1, max_batch_size)})
     */
    public FormedBatch(final int capacity)
    {
        requests = new PendingRequest[Math.max(1, capacity)];
        controls = new int[requests.length];
        slots = new int[requests.length];
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
        yieldTo = -1;
    }

    /**
     * Appends a request (policy only).
     *
     * @param request the request, in queue order
     */
    public void add(final PendingRequest request)
    {
        add(request, 0, -1);
    }

    /**
     * Appends a row of a sequence batch (sequence policies only).
     *
     * @param request the row's request, or {@code null} for a padding row (batch size 1)
     * @param control the row's {@link SequenceControl} bits
     * @param slot    the sequence slot of the row's instance the row belongs to, or -1 for none
     */
    public void add(final PendingRequest request, final int control, final int slot)
    {
        if (count == requests.length)
        {
            requests = java.util.Arrays.copyOf(requests, count * 2);
            controls = java.util.Arrays.copyOf(controls, count * 2);
            slots = java.util.Arrays.copyOf(slots, count * 2);
        }
        controls[count] = control;
        slots[count] = slot;
        requests[count++] = request;
        batchSize += request == null ? 1 : request.batchSize;
    }

    /**
     * @param index row index, {@code 0 <= index < count()}
     * @return the sequence slot the row belongs to (where its implicit state lives), or -1
     */
    public int slot(final int index)
    {
        return slots[index];
    }

    /**
     * @param index row index, {@code 0 <= index < count()}
     * @return the row's {@link SequenceControl} bits (0 in a batch no sequence policy formed)
     */
    public int control(final int index)
    {
        return controls[index];
    }

    /** @return the number of requests */
    public int count()
    {
        return count;
    }

    /**
     * @param index request index, {@code 0 <= index < count()}
     * @return the request, or {@code null} for a padding row of a sequence batch
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

    /** @return after {@link BatchPolicy#YIELD}: the instance that has work only it may run */
    public int yieldTo()
    {
        return yieldTo;
    }

    /**
     * Records which instance should take the role (policy only).
     *
     * @param instance that instance's index
     */
    public void yieldTo(final int instance)
    {
        yieldTo = instance;
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
