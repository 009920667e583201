package io.ingot.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded, lock-free, multi-producer multi-consumer FIFO of references: the free lists through which the core
 * recycles responses and output blocks. Dmitry Vyukov's bounded MPMC queue — each slot carries a sequence that says
 * whether it is free for the producer of a lap or full for its consumer — written with {@link VarHandle}s, so it
 * needs nothing of {@code jdk.internal.misc} (Agrona's {@code ManyToManyConcurrentArrayQueue}, which it replaced,
 * reaches {@code jdk.internal.misc.Unsafe} and so needed {@code --add-opens java.base/jdk.internal.misc} in every JVM
 * that ran the core).
 *
 * <p><b>Protocol.</b> A producer reads the tail {@code t}; when slot {@code t & mask} carries sequence {@code t} it is
 * free for this lap, and the producer that wins the compare-and-set of the tail from {@code t} to {@code t + 1} owns
 * it: it stores the element (plain) and then the slot's sequence {@code t + 1} (release). A consumer reads the head
 * {@code h}; when slot {@code h & mask} carries {@code h + 1} it is full, and the consumer that wins the head's
 * compare-and-set takes the element, clears the slot and stores the sequence {@code h + capacity} (release): free for
 * the producer one lap on. A slot whose sequence is behind the expected value means full (for a producer) or empty
 * (for a consumer), answered at once; one that is ahead means another thread moved the counter first, and the loop
 * reads again. The acquire read of a slot's sequence pairs with the release store of the thread that set it, so a
 * consumer sees the element its producer stored, and a producer never overwrites an element not yet taken.
 *
 * <p>{@link #offer} and {@link #poll} allocate nothing and never block; neither waits for another thread except to
 * retry a lost compare-and-set. A producer that stalls between its claim and its publication holds back consumers of
 * that slot only ({@link #poll} answers {@code null} meanwhile, as if the queue were empty there).
 *
 * <p>Thread-safety: every method from any thread.
 *
 * @param <E> the element type
 */
public final class BoundedMpmcQueue<E> extends BoundedMpmcQueueFields.PadAfterHead
{
    private static final VarHandle SEQUENCES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final long[] sequences;
    private final Object[] elements;
    private final int mask;
    private final int capacity;

    /**
     * @param requestedCapacity the most elements it holds, rounded up to a power of two (at least 2)
     */
    public BoundedMpmcQueue(final int requestedCapacity)
    {
        if (requestedCapacity < 1 || requestedCapacity > 1 << 30)
        {
            throw new IllegalArgumentException("capacity must be between 1 and 2^30, was " + requestedCapacity);
        }
        capacity = Math.max(2, Integer.highestOneBit(requestedCapacity - 1) << 1);
        mask = capacity - 1;
        sequences = new long[capacity];
        elements = new Object[capacity];
        for (int i = 0; i < capacity; i++)
        {
            sequences[i] = i;
        }
        VarHandle.releaseFence();
    }

    /**
     * Adds an element at the tail unless the queue is full.
     *
     * @param element not null
     * @return false when the queue is full (the element was not added); full counts a slot that a consumer has
     *         claimed but not yet cleared, so a queue may refuse with one place about to be free, as Agrona's did.
     *         The core's pools drop what they cannot keep.
     */
    public boolean offer(final E element)
    {
        if (element == null)
        {
            throw new NullPointerException("element");
        }
        long tail = (long)TAIL.getVolatile(this);
        while (true)
        {
            final int index = (int)tail & mask;
            final long sequence = (long)SEQUENCES.getAcquire(sequences, index);
            if (sequence == tail)
            {
                final long witness = (long)TAIL.compareAndExchange(this, tail, tail + 1);
                if (witness == tail)
                {
                    ELEMENTS.set(elements, index, element);
                    SEQUENCES.setRelease(sequences, index, tail + 1);
                    return true;
                }
                tail = witness;
            }
            else if (sequence < tail)
            {
                return false;
            }
            else
            {
                tail = (long)TAIL.getVolatile(this);
            }
        }
    }

    /**
     * Takes the element at the head, if any.
     *
     * @return the oldest element, or null when the queue is empty
     */
    public E poll()
    {
        long head = (long)HEAD.getVolatile(this);
        while (true)
        {
            final int index = (int)head & mask;
            final long sequence = (long)SEQUENCES.getAcquire(sequences, index);
            if (sequence == head + 1)
            {
                final long witness = (long)HEAD.compareAndExchange(this, head, head + 1);
                if (witness == head)
                {
                    @SuppressWarnings("unchecked")
                    final E element = (E)ELEMENTS.get(elements, index);
                    ELEMENTS.set(elements, index, null);
                    SEQUENCES.setRelease(sequences, index, head + capacity);
                    return element;
                }
                head = witness;
            }
            else if (sequence < head + 1)
            {
                return null;
            }
            else
            {
                head = (long)HEAD.getVolatile(this);
            }
        }
    }

    /** @return the most elements the queue holds (a power of two) */
    public int capacity()
    {
        return capacity;
    }

    /** @return how many elements it holds, racy: exact only while no other thread offers or polls */
    public int size()
    {
        final long head = (long)HEAD.getVolatile(this);
        final long tail = (long)TAIL.getVolatile(this);
        return (int)Math.max(0, Math.min(capacity, tail - head));
    }
}
