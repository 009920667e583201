package io.ingot.scheduler;

/**
 * The part every policy over the dynamic batcher's queues ({@link BatchQueues}) shares: taking requests in, the
 * sweep of cancellations and REJECT timeouts, the drain at stop, the count. Subclasses decide which prefix of the
 * queue a free instance runs, and when. Single-threaded (see {@link BatchPolicy}).
 */
abstract class QueuedBatchPolicy implements BatchPolicy
{
    /** The model's queues, in Triton's order. */
    final BatchQueues queues;

    QueuedBatchPolicy(final SchedulerSettings settings, final boolean batchDimension, final LevelAdmission admission)
    {
        this.queues = new BatchQueues(settings, batchDimension, admission);
    }

    @Override
    public void enqueue(final PendingRequest request)
    {
        queues.enqueue(request);
    }

    @Override
    public final int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        final int count = queues.scan(nowNs, ended);
        return count == 0 ? EMPTY : form(nowNs, instance, count, batch);
    }

    /**
     * Decides what a free instance runs, once {@link BatchQueues#scan} found something queued.
     *
     * @param nowNs    the current time
     * @param instance the free instance's index
     * @param count    the number of requests the scan found batchable together, {@code >= 1}
     * @param batch    receives the batch (taken with {@link BatchQueues#take}) or the time to ask again; cleared
     * @return {@link #DISPATCH} or {@link #WAIT}
     */
    abstract int form(long nowNs, int instance, int count, FormedBatch batch);

    @Override
    public final long sweep(final long nowNs, final EndedRequests ended)
    {
        return queues.sweep(nowNs, ended);
    }

    @Override
    public final void drain(final EndedRequests ended)
    {
        queues.drain(ended);
    }

    @Override
    public final int queuedRequests()
    {
        return queues.queued();
    }
}
