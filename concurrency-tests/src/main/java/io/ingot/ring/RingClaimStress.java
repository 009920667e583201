package io.ingot.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two producers claim into a ring of two slots, one already holding an item, as the model scheduler's producers do:
 * a claim that finds the ring full, or wins a sequence whose slot is still a lap behind (its fetch-and-add raced past
 * a full ring), drains the ring itself when it gets the draining role, and waits otherwise. Every item arrives exactly
 * once, none overwritten.
 *
 * <p>r1: the items drained, as a bit set (1: the first, 2 and 4: the producers'); r2: how many.
 */
@JCStressTest
@Outcome(id = "7, 3", expect = ACCEPTABLE, desc = "every item drained exactly once")
@Outcome(expect = FORBIDDEN, desc = "an item lost, overwritten or drained twice")
@State
public class RingClaimStress
{
    private final RequestRing<Integer> ring = new RequestRing<>(2);
    private final AtomicBoolean role = new AtomicBoolean();
    private int bits;
    private int count;

    /** One slot is taken before the race. */
    public RingClaimStress()
    {
        ring.publish(1);
    }

    /** A producer. */
    @Actor
    public void producer1()
    {
        produce(2);
    }

    /** Another producer. */
    @Actor
    public void producer2()
    {
        produce(4);
    }

    private void produce(final int item)
    {
        long sequence;
        while ((sequence = ring.tryClaim()) == RequestRing.FULL)
        {
            helpDrain();
        }
        while (!ring.isWritable(sequence))
        {
            helpDrain();
        }
        ring.publish(sequence, item);
    }

    private void helpDrain()
    {
        if (role.compareAndSet(false, true))
        {
            ring.drain(this::take);
            role.set(false);
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    private void take(final int item)
    {
        bits |= item;
        count++;
    }

    /**
     * Drains what is left.
     *
     * @param result r1: the bit set drained; r2: the count
     */
    @Arbiter
    public void arbiter(final II_Result result)
    {
        ring.drain(this::take);
        result.r1 = bits;
        result.r2 = count;
    }
}
