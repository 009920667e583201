package io.ingot.scheduler;

/**
 * Requests a policy ended without executing them (queue timeouts under REJECT, cancellations, shutdown), each with
 * its {@link Ending}. A policy only records them; the thread that called it answers them afterwards, outside the
 * batching role, so that no user callback holds up batch formation. Reused; not thread-safe.
 */
public final class EndedRequests
{
    private PendingRequest[] requests = new PendingRequest[16];
    private Ending[] endings = new Ending[16];
    private int count;

    /**
     * Records an ended request.
     *
     * @param request the request, already out of every queue
     * @param ending  why it ended
     */
    public void add(final PendingRequest request, final Ending ending)
    {
        if (count == requests.length)
        {
            requests = java.util.Arrays.copyOf(requests, count * 2);
            endings = java.util.Arrays.copyOf(endings, count * 2);
        }
        requests[count] = request;
        endings[count] = ending;
        count++;
    }

    /** @return how many are recorded */
    public int count()
    {
        return count;
    }

    /**
     * @param index entry index
     * @return the request
     */
    public PendingRequest request(final int index)
    {
        return requests[index];
    }

    /**
     * @param index entry index
     * @return why it ended
     */
    public Ending ending(final int index)
    {
        return endings[index];
    }

    /** Forgets every entry (references dropped). */
    public void clear()
    {
        for (int i = 0; i < count; i++)
        {
            requests[i] = null;
        }
        count = 0;
    }
}
