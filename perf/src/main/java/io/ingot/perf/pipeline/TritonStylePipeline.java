package io.ingot.perf.pipeline;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shape of Triton's dynamic batcher (triton-scheduling.md §2.1–§2.3, §2.11): callers enqueue under the
 * scheduler's mutex and signal its condition variable; one batcher thread waits until an instance is idle (Triton's
 * payload-slot check without prefetch), then on the condition variable — with the queue-delay deadline when there is
 * one — forms a batch, and hands it to the instance threads through a second mutex and condition variable; the
 * instance that takes it runs it and completes each request. Three thread boundaries per request (caller → batcher →
 * instance → caller).
 */
public final class TritonStylePipeline implements Pipeline
{
    private static final String NAME = "triton-style";

    /** A formed batch on its way to an instance. */
    private static final class Payload
    {
        final PipelineSlot[] slots;
        int count;

        Payload(final int capacity)
        {
            slots = new PipelineSlot[capacity];
        }
    }

    private final long width;
    private final int maxBatch;
    private final long maxDelayNs;
    private final ReentrantLock queueLock = new ReentrantLock();
    private final Condition arrived = queueLock.newCondition();
    private final ArrayDeque<PipelineSlot> queue = new ArrayDeque<>();
    private final ReentrantLock payloadLock = new ReentrantLock();
    private final Condition payloadReady = payloadLock.newCondition();
    private final Condition instanceIdle = payloadLock.newCondition();
    private final ArrayDeque<Payload> payloads = new ArrayDeque<>();
    private final ArrayDeque<Payload> freePayloads = new ArrayDeque<>();
    private final Arena arena = Arena.ofShared();
    private final List<Thread> threads = new ArrayList<>();
    private final BatchCompletions completions = new BatchCompletions(NAME);
    private int idleInstances;
    private volatile boolean running = true;

    /**
     * @param config     the identity model's configuration
     * @param width      elements per request
     * @param maxBatch   the most requests per batch
     * @param maxDelayNs how long a batch may wait to grow (0: take what is queued)
     * @param instances  instance threads
     */
    public TritonStylePipeline(final ModelConfig config, final long width, final int maxBatch,
        final long maxDelayNs, final int instances)
    {
        this(config, width, maxBatch, maxDelayNs, instances, true);
    }

    /**
     * @param config     the identity model's configuration
     * @param width      elements per request
     * @param maxBatch   the most requests per batch
     * @param maxDelayNs how long a batch may wait to grow (0: take what is queued)
     * @param instances  instance threads
     * @param runEngine  false for the batcher alone: instances complete a batch's requests without running it
     */
    TritonStylePipeline(final ModelConfig config, final long width, final int maxBatch, final long maxDelayNs,
        final int instances, final boolean runEngine)
    {
        this.width = width;
        this.maxBatch = maxBatch;
        this.maxDelayNs = maxDelayNs;
        for (int i = 0; i < instances + 2; i++)
        {
            freePayloads.add(new Payload(maxBatch));
        }
        for (int i = 0; i < instances; i++)
        {
            final EngineBatch batch = runEngine ? new EngineBatch(config, BaselineEngine.create(config, i), width,
                maxBatch, arena) : null;
            threads.add(Thread.ofPlatform().name("triton-style-instance-" + i).daemon(true)
                .start(() -> instance(batch)));
        }
        threads.add(Thread.ofPlatform().name("triton-style-batcher").daemon(true).start(this::batcher));
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public PipelineSlot newSlot(final Arena slotArena)
    {
        return PipelineSlot.rows(slotArena, width);
    }

    @Override
    public void submit(final PipelineSlot slot)
    {
        queueLock.lock();
        try
        {
            queue.addLast(slot);
            arrived.signal();
        }
        finally
        {
            queueLock.unlock();
        }
    }

    private void batcher()
    {
        try
        {
            while (running)
            {
                final Payload payload;
                payloadLock.lock();
                try
                {
                    while (running && idleInstances == 0)
                    {
                        instanceIdle.await();
                    }
                    payload = freePayloads.pollFirst();
                }
                finally
                {
                    payloadLock.unlock();
                }
                if (!running)
                {
                    return;
                }
                queueLock.lock();
                try
                {
                    while (running && queue.isEmpty())
                    {
                        arrived.await();
                    }
                    if (maxDelayNs > 0)
                    {
                        final long deadline = System.nanoTime() + maxDelayNs;
                        long left;
                        while (running && queue.size() < maxBatch && (left = deadline - System.nanoTime()) > 0)
                        {
                            arrived.awaitNanos(left);
                        }
                    }
                    payload.count = 0;
                    while (payload.count < maxBatch && !queue.isEmpty())
                    {
                        payload.slots[payload.count++] = queue.pollFirst();
                    }
                }
                finally
                {
                    queueLock.unlock();
                }
                payloadLock.lock();
                try
                {
                    payloads.addLast(payload);
                    idleInstances--;
                    payloadReady.signal();
                }
                finally
                {
                    payloadLock.unlock();
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void instance(final EngineBatch batch)
    {
        try
        {
            while (running)
            {
                final Payload payload;
                payloadLock.lock();
                try
                {
                    idleInstances++;
                    instanceIdle.signal();
                    while (running && payloads.isEmpty())
                    {
                        payloadReady.await();
                    }
                    payload = payloads.pollFirst();
                }
                finally
                {
                    payloadLock.unlock();
                }
                if (payload == null)
                {
                    return;
                }
                completions.run(batch, payload.slots, payload.count);
                payloadLock.lock();
                try
                {
                    freePayloads.addLast(payload);
                }
                finally
                {
                    payloadLock.unlock();
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public long requests()
    {
        return completions.requests();
    }

    @Override
    public long executions()
    {
        return completions.executions();
    }

    @Override
    public void close()
    {
        running = false;
        for (final Thread thread : threads)
        {
            thread.interrupt();
        }
        for (final Thread thread : threads)
        {
            try
            {
                thread.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        // Whatever a caller submitted while the threads stopped is answered, so that no caller waits forever.
        failLeft(queue);
        for (final Payload payload : payloads)
        {
            for (int i = 0; i < payload.count; i++)
            {
                payload.slots[i].fail("triton-style pipeline closed");
            }
        }
        arena.close();
    }

    private static void failLeft(final ArrayDeque<PipelineSlot> left)
    {
        for (PipelineSlot slot = left.pollFirst(); slot != null; slot = left.pollFirst())
        {
            slot.fail("triton-style pipeline closed");
        }
    }
}
