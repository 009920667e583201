package io.ingot.scheduler;

/**
 * The queue of one priority level, as Triton's {@code PolicyQueue}: unexpired requests first-in first-out, then the
 * requests that expired under a DELAY policy, in expiry order. Owned by the holder of the batching role.
 */
final class PolicyQueue
{
    final long level;
    final QueuePolicy policy;
    final RequestDeque queue = new RequestDeque();
    final RequestDeque delayed = new RequestDeque();

    PolicyQueue(final long level, final QueuePolicy policy)
    {
        this.level = level;
        this.policy = policy;
    }

    boolean isEmpty()
    {
        return queue.isEmpty() && delayed.isEmpty();
    }

    /** @return the first request in queue order (unexpired first, then delayed), or {@code null} */
    PendingRequest peekFirst()
    {
        return queue.isEmpty() ? delayed.peekFirst() : queue.peekFirst();
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
