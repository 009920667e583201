package io.ingot.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * A multi-producer, single-consumer ring of preallocated slots carrying references to requests.
 *
 * <p><b>Claim and publish.</b> Producers claim a sequence ({@link #tryClaim()}) and {@link #publish} into its slot, in
 * Aeron's claim/commit manner: a full ring is a status code, not a wait, so a producer can help drain instead of
 * blocking. A producer that must withdraw after claiming publishes {@code null}: a tombstone the consumer skips, which
 * keeps the sequence whole. One consumer at a time {@link #drain drains} published items in order. Neither side
 * allocates or locks. Waking a sleeping consumer is the caller's business: the ring only moves items.
 *
 * <p><b>Why not the Disruptor's ring.</b> Its multi-producer claim is a compare-and-set loop on a cursor that its
 * consumer also reads to find new items, so under two or more producers the claim retries and the cursor's cache
 * line moves between every thread (JFR on the intake benchmark: 36 % of the producers' samples in that claim). Here
 * a claim is one fetch-and-add on the tail, which never retries, and the consumer finds items by looking at the slots
 * themselves, never at the tail: a producer's claim touches a line only producers write, its publish a line only its
 * consumer reads. The price is that a claim cannot be undone, so a ring that filled up between a producer's look
 * and its fetch-and-add gives it a sequence whose slot is not free yet: {@link #isWritable} says when it is (the
 * consumer has drained the item a lap before), and until then the producer drains or waits.
 *
 * <p><b>Memory order.</b> A slot is published with a release store of its item (a {@code TOMBSTONE} for
 * {@code null}) and read with an acquire load, so the consumer sees everything the producer wrote before publishing.
 * The consumer clears the slots a drain read, then advances {@code head} past them all with one release store (a
 * drain reads at most one lap, so it never meets a slot it has not cleared yet); a producer writes a slot only
 * once it has read a {@code head} past the slot's previous lap (acquire), so it never overwrites an undrained item.
 * A producer may learn that {@code head} from the cache another producer filled: the cache is written with release
 * and read with acquire, so the chain from the consumer's clear to this producer's write stays ordered (with opaque
 * accesses the consumer's clear of the old item could land after the new item and erase it).
 *
 * <p>Thread-safety: {@link #tryClaim}, {@link #isWritable}, {@link #publish} from any thread (publish by the claiming
 * thread only); {@link #drain} from one thread at a time; the monitoring reads from any thread (racy).
 *
 * @param <E> the item type
 */
public final class RequestRing<E> extends RequestRingFields.PadAfterHead
{
    /** {@link #tryClaim()}: every slot holds an item the consumer has not drained yet. */
    public static final long FULL = -1;

    /** What a withdrawn claim publishes: the consumer skips it. */
    private static final Object TOMBSTONE = new Object();
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final Object[] slots;
    private final int mask;
    private final int capacity;

    /**
     * @param size number of slots, a power of two
     */
    public RequestRing(final int size)
    {
        if (size < 2 || Integer.bitCount(size) != 1)
        {
            throw new IllegalArgumentException("ring size must be a power of two >= 2, was " + size);
        }
        slots = new Object[size];
        mask = size - 1;
        capacity = size;
    }

    /**
     * Claims the next sequence (any thread): one fetch-and-add, a full fence, that never fails. Its slot must then be
     * {@link #publish published}, promptly and exactly once, as soon as it is {@link #isWritable writable} — at once
     * unless the ring is full, in which case the claim waits for the consumer to drain the item a lap before it.
     *
     * @return the claimed sequence
     */
    public long claim()
    {
        return (long)TAIL.getAndAdd(this, 1L);
    }

    /**
     * Claims the next {@code count} sequences at once (any thread): one fetch-and-add, a full fence, that never fails
     * — a batch of requests pays for one claim. Each slot must then be {@link #publish published} in turn as for
     * {@link #claim()}; more than the ring's capacity may be claimed, in which case the later slots become writable as
     * the consumer drains the earlier ones.
     *
     * @param count how many, at least 1
     * @return the first claimed sequence; the others follow it
     */
    public long claim(final int count)
    {
        return (long)TAIL.getAndAdd(this, (long)count);
    }

    /**
     * Claims the next sequence unless the ring looks full: a look at the tail and the cached head first, then
     * {@link #claim()}. Another producer may fill the ring between the look and the claim, so the sequence returned
     * is not always {@link #isWritable writable} at once.
     *
     * @return the claimed sequence, or {@link #FULL} (nothing claimed) when the ring looked full
     */
    public long tryClaim()
    {
        final long tail = (long)TAIL.getOpaque(this);
        if (tail - (long)HEAD_CACHE.getAcquire(this) >= capacity)
        {
            final long head = (long)HEAD.getAcquire(this);
            HEAD_CACHE.setRelease(this, head);
            if (tail - head >= capacity)
            {
                return FULL;
            }
        }
        return claim();
    }

    /**
     * Whether a claimed sequence's slot is free to publish into: the consumer has drained the item a lap before it.
     * Always true unless the ring filled up between the claim's look and its fetch-and-add.
     *
     * @param sequence what {@link #tryClaim()} returned
     * @return whether {@link #publish(long, Object)} may write the slot now
     */
    public boolean isWritable(final long sequence)
    {
        if (sequence - (long)HEAD_CACHE.getAcquire(this) < capacity)
        {
            return true;
        }
        final long head = (long)HEAD.getAcquire(this);
        HEAD_CACHE.setRelease(this, head);
        return sequence - head < capacity;
    }

    /**
     * Publishes an item into a claimed slot (the claiming thread), once {@link #isWritable} said it may: the caller
     * waits for that itself (the model scheduler drains the ring meanwhile), so the hot path checks it once.
     *
     * @param sequence what {@link #claim()} or {@link #tryClaim()} returned, {@link #isWritable writable}
     * @param item     the item, or {@code null} for a tombstone the consumer skips
     */
    public void publish(final long sequence, final E item)
    {
        assert isWritable(sequence) : "sequence " + sequence + " published before its slot was drained";
        SLOTS.setRelease(slots, (int)sequence & mask, item == null ? TOMBSTONE : item);
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
        while (!isWritable(sequence))
        {
            Thread.onSpinWait();
        }
        publish(sequence, item);
    }

    /**
     * Hands the items published so far to {@code sink}, in sequence order, skipping tombstones; stops at the first
     * claimed slot not yet published, or after one lap (the ring's capacity). The slots it read are freed together
     * when it returns (or when the sink throws: the item that threw counts as drained). One thread at a time.
     *
     * @param sink receives the items
     * @return the number of items handed over
     */
    @SuppressWarnings("unchecked")
    public int drain(final Consumer<? super E> sink)
    {
        final long first = (long)HEAD.getOpaque(this);
        // One lap at most: the slots are cleared after the loop, so a full ring's next lap would find its first item.
        final long end = first + capacity;
        long head = first;
        int count = 0;
        try
        {
            while (head != end)
            {
                final Object item = SLOTS.getAcquire(slots, (int)head & mask);
                if (item == null)
                {
                    return count;
                }
                head++;
                if (item != TOMBSTONE)
                {
                    count++;
                    sink.accept((E)item);
                }
            }
            return count;
        }
        finally
        {
            release(first, head);
        }
    }

    /**
     * Frees the drained slots {@code [first, end)} at once: cleared, then {@code head} moved past them with one release
     * store (a producer that reads it may write them). Clearing each slot as it is read wrote the line the producer
     * was still publishing into once per item, and each write cost both threads a miss; a producer cannot reach these
     * slots before the release, since they are a lap ahead of every claim that is not yet writable.
     */
    private void release(final long first, final long end)
    {
        if (end == first)
        {
            return;
        }
        for (long sequence = first; sequence < end; sequence++)
        {
            slots[(int)sequence & mask] = null;
        }
        HEAD.setRelease(this, end);
    }

    /**
     * Whether the next slot to drain holds a published item (the consumer's look: it reads the slot, not the tail).
     * A claim not yet published does not count; its producer signals after publishing.
     *
     * @return true when {@link #drain} would hand over or skip at least one slot now
     */
    public boolean hasPublished()
    {
        return SLOTS.getAcquire(slots, (int)(long)HEAD.getOpaque(this) & mask) != null;
    }

    /**
     * Whether the slot half a lap past the next one to drain holds a published item: the consumer's look at how far
     * its producers got, without reading the tail they all write. A consumer that lets items wait (its queue holds
     * enough work) drains once this says the ring is half full, long before a producer finds it full.
     *
     * @return true when at least half the ring is published and waiting (racy: producers go on publishing)
     */
    public boolean isHalfFull()
    {
        return SLOTS.getAcquire(slots, (int)((long)HEAD.getOpaque(this) + (capacity >> 1)) & mask) != null;
    }

    /** @return true when nothing is waiting to be drained (claimed slots not yet published included) */
    public boolean isEmpty()
    {
        return (long)TAIL.getAcquire(this) == (long)HEAD.getAcquire(this);
    }

    /** @return the sequence of the last claimed slot (published or not); -1 before the first claim */
    public long claimed()
    {
        return (long)TAIL.getVolatile(this) - 1;
    }

    /** @return the sequence of the last drained slot; -1 before the first drain */
    public long drained()
    {
        return (long)HEAD.getVolatile(this) - 1;
    }

    /** @return the number of slots claimed and not yet drained (tombstones included): a racy count for monitoring */
    public long occupancy()
    {
        return Math.max(0, (long)TAIL.getVolatile(this) - (long)HEAD.getVolatile(this));
    }

    /** @return the number of slots */
    public int capacity()
    {
        return capacity;
    }
}
