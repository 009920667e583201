package io.ingot.scheduler;

/**
 * {@code preserve_ordering} over any batch policy: every request a decision dispatches gets the next delivery
 * sequence ({@link PendingRequest#orderSequence}), in the order the policy put it into its batch, so that responses
 * are delivered in the order requests were dequeued into batches, also across instances (triton-scheduling.md §2.12,
 * the intended semantics: the slot is reserved at dequeue, not at response time). Delivery itself keeps the order
 * (the core's {@code OrderedDelivery}); this decorator only numbers. Single-threaded, like the policy it wraps.
 */
public final class OrderedBatchPolicy implements BatchPolicy
{
    private final BatchPolicy policy;
    private long nextSequence;

    /**
     * @param policy the policy whose dispatched requests are numbered
     */
    public OrderedBatchPolicy(final BatchPolicy policy)
    {
        this.policy = policy;
    }

    @Override
    public void enqueue(final PendingRequest request)
    {
        policy.enqueue(request);
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        final int status = policy.decide(nowNs, instance, batch, ended);
        if (status == DISPATCH)
        {
            for (int i = 0; i < batch.count(); i++)
            {
                final PendingRequest request = batch.get(i);
                if (request != null)
                {
                    request.orderSequence = nextSequence++;
                }
            }
        }
        return status;
    }

    @Override
    public long sweep(final long nowNs, final EndedRequests ended)
    {
        return policy.sweep(nowNs, ended);
    }

    @Override
    public void drain(final EndedRequests ended)
    {
        policy.drain(ended);
    }

    @Override
    public int queuedRequests()
    {
        return policy.queuedRequests();
    }

    @Override
    public boolean keepsTime()
    {
        return policy.keepsTime();
    }

    @Override
    public boolean holdsNextBatch()
    {
        return policy.holdsNextBatch();
    }

    @Override
    public boolean learnsExecution()
    {
        return policy.learnsExecution();
    }

    @Override
    public void executed(final int instance, final int batchSize, final long durationNs)
    {
        policy.executed(instance, batchSize, durationNs);
    }
}
