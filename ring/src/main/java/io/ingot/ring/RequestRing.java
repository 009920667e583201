package io.ingot.ring;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.function.Consumer;

/**
 * A multi-producer, single-consumer ring of preallocated slots carrying references to requests.
 *
 * <p>Producers {@link #publish} from any thread; a full ring makes them wait (back-pressure) rather than allocate.
 * One consumer thread {@link #drain drains} published items in order. Neither side allocates or locks. Waking a
 * sleeping consumer is the caller's business: the ring only moves items.
 *
 * @param <E> the item type
 */
public final class RequestRing<E>
{
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
        // The wait strategy is used only by producers waiting for space; the consumer polls.
        ring = RingBuffer.createMultiProducer(Slot::new, size, new YieldingWaitStrategy());
        poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
    }

    /**
     * Publishes an item. Waits while the ring is full.
     *
     * @param item the item, not null
     */
    public void publish(final E item)
    {
        final long sequence = ring.next();
        ring.get(sequence).item = item;
        ring.publish(sequence);
    }

    /**
     * Hands every item published so far to {@code sink}, in publication order. Only one thread may drain.
     *
     * @param sink receives the items
     * @return the number of items drained
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

    /** @return true when nothing is waiting to be drained. */
    public boolean isEmpty()
    {
        return ring.getCursor() == poller.getSequence().get();
    }

    /** @return the number of slots. */
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
            count++;
            sink.accept((E)item);
            return true;
        }
    }
}
