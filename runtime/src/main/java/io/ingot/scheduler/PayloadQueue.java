package io.ingot.scheduler;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payloads of one model version waiting for an instance, first-in first-out, plus the pool of payload objects.
 *
 * <p>Instances block in {@link #take()}; the first idle instance gets the front payload. The batcher asks
 * {@link #slotAvailable()} before forming a new batch, as Triton's rate limiter does: with prefetch, while fewer than
 * twice the instance count are queued; without prefetch, only while an instance is waiting for which no payload has
 * been queued yet.
 *
 * <p>The waiting count follows Triton's consumer count ({@code RateLimiter::DequeuePayload} /
 * {@code EnqueuePayload}): an instance adds one when it starts waiting and {@link #enqueue} takes one away, so the
 * payload queued for a waiting instance closes its slot at once. Taking that payload changes nothing, so there is no
 * moment, between an instance taking a payload and starting to execute it, in which the batcher sees a free instance
 * that does not exist.
 */
public final class PayloadQueue
{
    private static final Payload STOP = new Payload(1);

    private final ArrayBlockingQueue<Payload> queue;
    private final ManyToManyConcurrentArrayQueue<Payload> free;
    /** Instances that started waiting in {@link #take()} minus payloads queued: the free slots without prefetch. */
    private final AtomicInteger waitingConsumers = new AtomicInteger();
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

    /**
     * @return whether the batcher may form a new payload now: with prefetch, while fewer than twice the instance count
     *         are queued; without prefetch, while some instance waits with no payload queued for it
     */
    public boolean slotAvailable()
    {
        return prefetch ? queue.size() < 2 * instanceCount : waitingConsumers.get() > 0;
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
        // Claim the waiting instance's slot before the payload becomes visible to it (as Triton's EnqueuePayload
        // decrements the consumer count first), so the slot is never counted twice.
        waitingConsumers.decrementAndGet();
        if (!queue.offer(payload))
        {
            waitingConsumers.incrementAndGet();
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
        waitingConsumers.incrementAndGet();
        final Payload payload;
        try
        {
            onInstanceIdle.run();
            payload = queue.take();
        }
        catch (final InterruptedException | RuntimeException ex)
        {
            // Nothing was taken: this instance no longer waits, so its slot goes away with it.
            waitingConsumers.decrementAndGet();
            throw ex;
        }
        if (payload == STOP)
        {
            return null;
        }
        payload.claimForExecution();
        return payload;
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
