package io.ingot.scheduler;

/**
 * Triton's default scheduler (no scheduling block in the configuration) as a {@link BatchPolicy}: every request is
 * its own batch, first in first out; there are no priority levels, queue policies or delays, and a request's priority
 * and timeout are ignored (triton-scheduling.md §2.13). A request cancelled while it waits is answered CANCELLED.
 *
 * <p>Single-threaded (see {@link BatchPolicy}).
 */
public final class DefaultSchedulingPolicy implements BatchPolicy
{
    private final RequestDeque queue = new RequestDeque();

    @Override
    public void enqueue(final PendingRequest request)
    {
        request.deadlineNs = 0;
        queue.addLast(request);
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        while (!queue.isEmpty())
        {
            final PendingRequest head = queue.pollFirst();
            if (head.isCancelled())
            {
                ended.add(head, Ending.CANCELLED);
                continue;
            }
            batch.add(head);
            return DISPATCH;
        }
        return EMPTY;
    }

    @Override
    public long sweep(final long nowNs, final EndedRequests ended)
    {
        int index = 0;
        while (index < queue.size())
        {
            final PendingRequest candidate = queue.get(index);
            if (candidate.isCancelled())
            {
                queue.removeAt(index);
                ended.add(candidate, Ending.CANCELLED);
            }
            else
            {
                index++;
            }
        }
        return NO_DEADLINE;
    }

    @Override
    public void drain(final EndedRequests ended)
    {
        while (!queue.isEmpty())
        {
            ended.add(queue.pollFirst(), Ending.STOPPING);
        }
    }

    @Override
    public int queuedRequests()
    {
        return queue.size();
    }
}
