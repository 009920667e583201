package io.ingot.core;

import io.ingot.api.InferenceResponse;
import io.ingot.scheduler.PendingRequest;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * Delivers responses in the order their requests entered batches ({@code preserve_ordering}): each request gets a
 * sequence number when its batch is formed ({@link PendingRequest#orderSequence}), its response fills that slot, and
 * the front is delivered while its slot is filled — so a later batch's responses wait for an earlier batch's, also
 * across instances.
 *
 * <p>No lock: an instance parks its responses in their slots and then tries to become the one that flushes; whoever
 * holds the flushing token delivers every consecutive filled slot, the user's listeners included, while the others
 * go on without waiting (their responses are delivered by the flusher, in order). After giving the token up, a
 * flusher looks at the front once more, so a response parked while it held the token is never stranded. The slots
 * form a ring (by default {@value #CAPACITY}): at most that many responses may be in flight beyond an undelivered
 * one, far more than a model's instances can hold in their batches. Thread-safe.
 */
final class OrderedDelivery
{
    /** Responses that may wait behind the oldest undelivered one, by default. */
    static final int CAPACITY = 1 << 16;

    private final int capacity;
    private final int mask;
    private final AtomicReferenceArray<PendingRequest> requests;
    private final InferenceResponse[] responses;
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final BiConsumer<PendingRequest, InferenceResponse> sink;
    /** The next sequence to deliver; written only by the flusher. */
    private volatile long next;

    /**
     * @param sink delivers one response (called without any lock, by whichever thread flushes)
     */
    OrderedDelivery(final BiConsumer<PendingRequest, InferenceResponse> sink)
    {
        this(CAPACITY, sink);
    }

    /**
     * @param capacity responses that may wait behind the oldest undelivered one, a power of two
     * @param sink     delivers one response
     */
    OrderedDelivery(final int capacity, final BiConsumer<PendingRequest, InferenceResponse> sink)
    {
        if (Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two, was " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.requests = new AtomicReferenceArray<>(capacity);
        this.responses = new InferenceResponse[capacity];
        this.sink = sink;
    }

    /**
     * Parks a finished response in its request's slot and delivers every response now at the front, in order.
     *
     * @param request  the request, with its reserved sequence
     * @param response its response
     */
    void complete(final PendingRequest request, final InferenceResponse response)
    {
        final long sequence = request.orderSequence;
        while (sequence - next >= capacity)
        {
            Thread.onSpinWait();  // more than CAPACITY responses are waiting for a slow one: wait for it
        }
        final int slot = (int)(sequence & mask);
        responses[slot] = response;
        requests.setRelease(slot, request);  // publishes the response written just before
        flush();
    }

    private void flush()
    {
        while (flushing.compareAndSet(false, true))
        {
            long front = next;
            try
            {
                while (true)
                {
                    final int slot = (int)(front & mask);
                    final PendingRequest ready = requests.getAcquire(slot);
                    if (ready == null || ready.orderSequence != front)
                    {
                        break;
                    }
                    final InferenceResponse answer = responses[slot];
                    responses[slot] = null;
                    requests.setRelease(slot, null);
                    front++;
                    next = front;
                    sink.accept(ready, answer);
                }
            }
            finally
            {
                flushing.set(false);
            }
            // A response parked while this thread held the token: flush again, unless another thread took over.
            final PendingRequest after = requests.getAcquire((int)(front & mask));
            if (after == null || after.orderSequence != front)
            {
                return;
            }
        }
    }
}
