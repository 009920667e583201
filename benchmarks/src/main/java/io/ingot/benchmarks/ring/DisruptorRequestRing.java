package io.ingot.benchmarks.ring;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * The measured baseline of Ingot's intake ring: a multi-producer, single-consumer ring of references over the LMAX
 * Disruptor's {@link RingBuffer}, with the public methods of {@code io.ingot.ring.RequestRing} (the fetch-and-add
 * ring the core runs), so that the same callers run on either. It is the ring Ingot ran until 2026-12-02 (commit
 * {@code f7c8b22}), kept here, in the benchmarks module only, to measure the choice again
 * ({@code docs/benchmarks/ring-choice.md}).
 *
 * <p><b>Claim.</b> The Disruptor's multi-producer sequencer claims on a cursor that its consumer also reads to find
 * new items. {@link Claim#TRY_NEXT} is {@code tryNext()}, a compare-and-set loop on that cursor that answers a full
 * ring instead of waiting (how Ingot used it); {@link Claim#NEXT} is {@code next()}, which in Disruptor 4 is one
 * fetch-and-add on the cursor and then, while the ring is full, a wait of {@code parkNanos(1)} at a time. Either way
 * a claimed sequence is {@link #isWritable writable} at once.
 *
 * <p><b>Publish and drain.</b> A slot is a preallocated event holding a reference: a publish stores the reference and
 * marks the sequence in the sequencer's availability buffer (a release store); the consumer polls through an
 * {@link EventPoller}, which reads the cursor and then the availability buffer up to it. {@code null} is a tombstone
 * the consumer skips, as in {@code RequestRing}.
 *
 * <p>Thread-safety: as {@code RequestRing}'s: claims and publishes from any thread (a publish by its claimer);
 * {@link #drain} from one thread at a time; the monitoring reads from any thread (racy).
 *
 * @param <E> the item type
 */
public class DisruptorRequestRing<E>
{
    /** {@link #tryClaim()}: every slot holds an item the consumer has not drained yet. */
    public static final long FULL = -1;

    /** The system property that chooses the claim of {@code RequestRing}s built over this class. */
    public static final String CLAIM_PROPERTY = "ingot.bench.disruptor.claim";

    /** How producers claim a sequence. */
    public enum Claim
    {
        /** {@code RingBuffer.tryNext()}: a compare-and-set loop on the cursor; a full ring is a status. */
        TRY_NEXT,
        /** {@code RingBuffer.next()}: a fetch-and-add on the cursor, then a wait while the ring is full. */
        NEXT;

        /**
         * @param name {@code tryNext} or {@code next} (any case), or {@code null} for {@link #TRY_NEXT}
         * @return the claim
         * @throws IllegalArgumentException naming the accepted values
         */
        public static Claim parse(final String name)
        {
            if (name == null)
            {
                return TRY_NEXT;
            }
            return switch (name.toLowerCase(Locale.ROOT))
            {
                case "trynext" -> TRY_NEXT;
                case "next" -> NEXT;
                default -> throw new IllegalArgumentException("unknown Disruptor claim '" + name
                    + "'; expected tryNext or next");
            };
        }
    }

    /** A slot: a mutable reference, cleared once consumed so that the item can be collected. */
    private static final class Slot
    {
        Object item;
    }

    private final RingBuffer<Slot> ring;
    private final EventPoller<Slot> poller;
    private final DrainHandler handler = new DrainHandler();
    private final boolean claimWaits;

    /**
     * @param size  number of slots, a power of two
     * @param claim how producers claim
     */
    public DisruptorRequestRing(final int size, final Claim claim)
    {
        if (size < 2 || Integer.bitCount(size) != 1)
        {
            throw new IllegalArgumentException("ring size must be a power of two >= 2, was " + size);
        }
        // The wait strategy is never used: producers claim without it and the consumer polls.
        ring = RingBuffer.createMultiProducer(Slot::new, size, new YieldingWaitStrategy());
        poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        claimWaits = claim == Claim.NEXT;
    }

    /**
     * Claims the next sequence, waiting while the ring is full (any thread).
     *
     * @return the claimed sequence, {@link #isWritable writable} at once
     */
    public long claim()
    {
        if (claimWaits)
        {
            return ring.next();
        }
        long sequence;
        while ((sequence = tryClaim()) == FULL)
        {
            Thread.onSpinWait();
        }
        return sequence;
    }

    /**
     * Claims the next {@code count} sequences at once (a batch), waiting while the ring lacks room for them: the
     * Disruptor's {@code next(n)} or {@code tryNext(n)}, which hands out only free slots, so at most the ring's size.
     *
     * @param count how many, 1 to the ring's size
     * @return the first claimed sequence; the others follow it, each {@link #isWritable writable} at once
     */
    public long claim(final int count)
    {
        if (claimWaits)
        {
            return ring.next(count) - count + 1;
        }
        while (true)
        {
            try
            {
                return ring.tryNext(count) - count + 1;
            }
            catch (final InsufficientCapacityException full)
            {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Claims the next sequence unless the ring is full. With {@link Claim#NEXT} a look at the capacity comes first,
     * and a producer that loses the last free slot to another between the look and its claim waits in the claim.
     *
     * @return the claimed sequence, or {@link #FULL} (nothing claimed)
     */
    public long tryClaim()
    {
        try
        {
            return claimWaits ? (ring.hasAvailableCapacity(1) ? ring.next() : FULL) : ring.tryNext();
        }
        catch (final InsufficientCapacityException full)
        {
            return FULL;
        }
    }

    /**
     * @param sequence a claimed sequence
     * @return true: the Disruptor hands out only sequences whose slot is free
     */
    public boolean isWritable(final long sequence)
    {
        return true;
    }

    /**
     * Publishes an item into a claimed slot (the claiming thread).
     *
     * @param sequence what {@link #claim()} or {@link #tryClaim()} returned
     * @param item     the item, or {@code null} for a tombstone the consumer skips
     */
    public void publish(final long sequence, final E item)
    {
        ring.get(sequence).item = item;
        ring.publish(sequence);
    }

    /**
     * Publishes an item, waiting while the ring is full.
     *
     * @param item the item, not null
     */
    public void publish(final E item)
    {
        publish(claim(), item);
    }

    /**
     * Hands every item published so far to {@code sink}, in sequence order, skipping tombstones; stops at the first
     * claimed slot not yet published. One thread at a time.
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

    /** @return true when the next sequence to drain is published (the consumer's look: the availability buffer) */
    public boolean hasPublished()
    {
        return ring.isAvailable(poller.getSequence().get() + 1);
    }

    /**
     * @return whether the sequence half a lap past the next one to drain is published (the availability buffer, as
     *     the core's ring looks at its slot)
     */
    public boolean isHalfFull()
    {
        return ring.isAvailable(poller.getSequence().get() + 1 + (ring.getBufferSize() >> 1));
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

    /**
     * Which ring the core's {@code io.ingot.ring.RequestRing} is in this JVM: the ring module's fetch-and-add ring,
     * or this one put first on the class path ({@code benchmarks/target/disruptor-ring}).
     *
     * @param requestRing {@code io.ingot.ring.RequestRing.class}
     * @return a line for the benchmark's log
     */
    public static String describe(final Class<?> requestRing)
    {
        return DisruptorRequestRing.class.isAssignableFrom(requestRing)
            ? "the Disruptor's (DisruptorRequestRing, claim " + Claim.parse(System.getProperty(CLAIM_PROPERTY)) + ")"
            : "fetch-and-add (the ring module's RequestRing)";
    }

    /** Hands each polled item to the sink, clearing its slot. */
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
