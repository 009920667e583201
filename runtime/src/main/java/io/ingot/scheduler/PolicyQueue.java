package io.ingot.scheduler;

/**
 * The queue of one priority level, as Triton's {@code PolicyQueue}: unexpired requests first-in first-out, then the
 * requests that expired under a DELAY policy, in expiry order. Owned by the batcher thread.
 */
final class PolicyQueue
{
    final QueuePolicy policy;
    final RequestDeque queue = new RequestDeque();
    final RequestDeque delayed = new RequestDeque();

    PolicyQueue(final QueuePolicy policy)
    {
        this.policy = policy;
    }

    boolean isEmpty()
    {
        return queue.isEmpty() && delayed.isEmpty();
    }

    /** Removes the first request in queue order: unexpired first, then delayed. */
    PendingRequest pollFirst()
    {
        return queue.isEmpty() ? delayed.pollFirst() : queue.pollFirst();
    }

    int size()
    {
        return queue.size() + delayed.size();
    }
}
