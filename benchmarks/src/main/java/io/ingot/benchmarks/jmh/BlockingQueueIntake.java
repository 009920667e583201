package io.ingot.benchmarks.jmh;

import java.util.ArrayList;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The baseline intake: a {@link BlockingQueue} whose worker thread takes the first request with a timed
 * {@code poll}, then {@code drainTo}s whatever else is queued, up to the maximum batch size — how DJL Serving's batch
 * aggregators and TorchServe's {@code pollBatch} build batches. As in those servers the worker that forms the batch
 * is the one that would run it, so there is one thread behind the queue (Ingot has a batcher and an instance).
 */
final class BlockingQueueIntake implements IntakePipeline
{
    private static final long IDLE_POLL_MS = 100;

    private final BlockingQueue<IntakeSlot> queue;
    private final int maxBatchSize;
    private final Thread worker;
    private volatile boolean running = true;

    /**
     * @param queue        the queue (a {@code LinkedBlockingQueue} or an {@code ArrayBlockingQueue})
     * @param maxBatchSize the most requests per batch
     */
    BlockingQueueIntake(final BlockingQueue<IntakeSlot> queue, final int maxBatchSize)
    {
        this.queue = queue;
        this.maxBatchSize = maxBatchSize;
        worker = Thread.ofPlatform().name("intake-worker").daemon(true).start(this::consume);
    }

    private void consume()
    {
        final ArrayList<IntakeSlot> batch = new ArrayList<>(maxBatchSize);
        try
        {
            while (running)
            {
                final IntakeSlot first = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
                if (first == null)
                {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatchSize - 1);
                for (int i = 0; i < batch.size(); i++)
                {
                    batch.get(i).complete();
                }
                batch.clear();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public IntakeSlot newSlot()
    {
        return new IntakeSlot(null);
    }

    @Override
    public void submit(final IntakeSlot slot)
    {
        slot.markBusy();
        try
        {
            queue.put(slot);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a request", ex);
        }
    }

    @Override
    public void close()
    {
        running = false;
        worker.interrupt();
        try
        {
            worker.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
