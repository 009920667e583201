package io.ingot.ring;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.function.Consumer;

/**
 * A multi-producer, single-consumer ring of preallocated slots carrying references to requests, over the LMAX
 * Disruptor's ring buffer.
 *
 * <p>Producers claim a slot ({@link #tryClaim()}: a compare-and-set on the cursor, the ring's one shared
 * read-modify-write per item) and {@link #publish} into it, in Aeron's claim/commit manner: a full ring is a status
 * code, not a wait, so a producer can help drain instead of blocking. A producer that must withdraw after claiming
 * publishes {@code null}: a tombstone the consumer skips, which keeps the sequence whole. One consumer at a time
 * {@link #drain drains} published items in order. Neither side allocates or locks. Waking a sleeping consumer is the
 * caller's business: the ring only moves items.
 *
 * @param <E> the item type
 */
public final class RequestRing<E>
{
    /** {@link #tryClaim()}: every slot holds an item the consumer has not drained yet. */
    public static final long FULL = -1;

    /** A slot: a mutable reference, cleared once consumed so the item can be collected. */
    private static final class Slot
    {
        Object item;
    }

    private final RingBuffer<Slot> ring;
    private final EventPoller<Slot> poller;
    private final DrainHandler handler = new DrainHandler();

    /**
     * @param size number of slots, a power of two
     */
    public RequestRing(final int size)
    {
        if (size < 2 || Integer.bitCount(size) != 1)
        {
            throw new IllegalArgumentException("ring size must be a power of two >= 2, was " + size);
        }
        // The wait strategy is never used: producers claim with tryNext and the consumer polls.
        ring = RingBuffer.createMultiProducer(Slot::new, size, new YieldingWaitStrategy());
        poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
    }

    /**
     * Claims the next slot (any thread). The slot must then be {@link #publish published}, promptly and exactly once.
     *
     * @return the slot's sequence, or {@link #FULL}
     */
    public long tryClaim()
    {
        try
        {
            return ring.tryNext();
        }
        catch (final InsufficientCapacityException full)
        {
            return FULL;
        }
    }

    /**
     * Publishes an item into a claimed slot (the claiming thread).
     *
     * @param sequence what {@link #tryClaim()} returned
     * @param item     the item, or {@code null} for a tombstone the consumer skips
     */
    public void publish(final long sequence, final E item)
    {
        ring.get(sequence).item = item;
        ring.publish(sequence);
    }

    /**
     * Publishes an item, waiting (spinning) while the ring is full. For producers that have nothing better to do.
     *
     * @param item the item, not null
     */
    public void publish(final E item)
    {
        long sequence;
        while ((sequence = tryClaim()) == FULL)
        {
            Thread.onSpinWait();
        }
        publish(sequence, item);
    }

    /**
     * Hands every item published so far to {@code sink}, in publication order, skipping tombstones. One thread at a
     * time.
     *
     * @param sink receives the items
     * @return the number of items handed over
     */
    public int drain(final Consumer<? super E> sink)
    {
        handler.sink = sink;
        handler.count = 0;
        try
        {
            poller.poll(handler);
        }
        catch (final RuntimeException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("request ring drain failed", ex);
        }
        finally
        {
            handler.sink = null;
        }
        return handler.count;
    }

    /** @return true when nothing is waiting to be drained (claimed slots not yet published included) */
    public boolean isEmpty()
    {
        return ring.getCursor() == poller.getSequence().get();
    }

    /** @return the sequence of the last claimed slot (published or not); -1 before the first claim */
    public long claimed()
    {
        return ring.getCursor();
    }

    /** @return the sequence of the last drained slot; -1 before the first drain */
    public long drained()
    {
        return poller.getSequence().get();
    }

    /** @return the number of slots claimed and not yet drained (tombstones included): a racy count for monitoring */
    public long occupancy()
    {
        return Math.max(0, ring.getCursor() - poller.getSequence().get());
    }

    /** @return the number of slots */
    public int capacity()
    {
        return ring.getBufferSize();
    }

    private final class DrainHandler implements EventPoller.Handler<Slot>
    {
        Consumer<? super E> sink;
        int count;

        @Override
        @SuppressWarnings("unchecked")
        public boolean onEvent(final Slot slot, final long sequence, final boolean endOfBatch)
        {
            final Object item = slot.item;
            slot.item = null;
            if (item != null)
            {
                count++;
                sink.accept((E)item);
            }
            return true;
        }
    }
}
