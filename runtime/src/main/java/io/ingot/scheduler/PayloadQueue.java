package io.ingot.scheduler;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payloads of one model version waiting for an instance, first-in first-out, plus the pool of payload objects.
 *
 * <p>Instances block in {@link #take()}; the first idle instance gets the front payload. The batcher asks
 * {@link #slotAvailable()} before forming a new batch, as Triton's rate limiter does: with prefetch, while fewer than
 * twice the instance count are queued; without prefetch, only while an instance is waiting.
 */
public final class PayloadQueue
{
    private static final Payload STOP = new Payload(1);

    private final ArrayBlockingQueue<Payload> queue;
    private final ManyToManyConcurrentArrayQueue<Payload> free;
    private final AtomicInteger idleInstances = new AtomicInteger();
    private final int instanceCount;
    private final boolean prefetch;
    private final int payloadCapacity;
    private final Runnable onInstanceIdle;

    /**
     * @param instanceCount   number of instances taking payloads
     * @param prefetch        whether batches may be formed ahead of idle instances
     * @param payloadCapacity requests per payload (the model's maximum batch size)
     * @param onInstanceIdle  called when an instance starts waiting (wakes the batcher)
     */
    public PayloadQueue(final int instanceCount, final boolean prefetch, final int payloadCapacity,
        final Runnable onInstanceIdle)
    {
        this.instanceCount = instanceCount;
        this.prefetch = prefetch;
        this.payloadCapacity = payloadCapacity;
        this.onInstanceIdle = onInstanceIdle;
        final int maxQueued = 2 * instanceCount;
        queue = new ArrayBlockingQueue<>(maxQueued + instanceCount + 2);
        final int pooled = maxQueued + instanceCount + 2;
        free = new ManyToManyConcurrentArrayQueue<>(pooled);
        for (int i = 0; i < pooled; i++)
        {
            free.offer(new Payload(payloadCapacity));
        }
    }

    /** @return whether the batcher may form a new payload now. */
    public boolean slotAvailable()
    {
        final int queued = queue.size();
        return prefetch ? queued < 2 * instanceCount : idleInstances.get() > queued;
    }

    /** @return a fresh payload (batcher only). */
    public Payload acquire()
    {
        final Payload payload = free.poll();
        if (payload == null)
        {
            return new Payload(payloadCapacity);
        }
        payload.reset();
        return payload;
    }

    /**
     * Returns a payload after its execution.
     *
     * @param payload the payload
     */
    public void release(final Payload payload)
    {
        payload.recycle();
        free.offer(payload);
    }

    /**
     * Queues a newly formed payload (batcher only).
     *
     * @param payload the payload, in state {@link Payload#READY}
     */
    public void enqueue(final Payload payload)
    {
        if (!queue.offer(payload))
        {
            throw new IllegalStateException("payload queue overflow: the batcher ignored slot availability");
        }
    }

    /**
     * Waits for the next payload and claims it for execution (instance threads).
     *
     * @return the payload, or {@code null} once {@link #stopInstances()} was called
     * @throws InterruptedException when interrupted while waiting
     */
    public Payload take() throws InterruptedException
    {
        idleInstances.incrementAndGet();
        final Payload payload;
        try
        {
            onInstanceIdle.run();
            payload = queue.take();
        }
        finally
        {
            idleInstances.decrementAndGet();
        }
        if (payload == STOP)
        {
            return null;
        }
        payload.claimForExecution();
        return payload;
    }

    /**
     * Removes the queued payloads that no instance has taken yet (shutdown), claiming each.
     *
     * @param sink receives each payload
     */
    public void drainUnclaimed(final java.util.function.Consumer<Payload> sink)
    {
        Payload payload;
        while ((payload = queue.poll()) != null)
        {
            if (payload == STOP)
            {
                continue;
            }
            payload.claimForExecution();
            sink.accept(payload);
        }
    }

    /** Makes every instance's {@link #take()} return {@code null} once the queue ahead of it is empty. */
    public void stopInstances()
    {
        for (int i = 0; i < instanceCount; i++)
        {
            queue.add(STOP);
        }
    }

    /** @return number of queued payloads. */
    public int size()
    {
        return queue.size();
    }
}
