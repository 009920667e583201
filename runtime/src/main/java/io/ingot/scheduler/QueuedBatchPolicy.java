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
