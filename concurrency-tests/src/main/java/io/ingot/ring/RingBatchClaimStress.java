package io.ingot.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A batch claim ({@code claim(2)}: one fetch-and-add for two sequences) racing a single claim, into a ring of two
 * slots that already holds an item, so that one of them waits for a slot a lap behind and drains the ring when it
 * gets the draining role, as the model scheduler's producers do. Every item arrives exactly once, and the batch's two
 * items in their order.
 *
 * <p>r1: the items drained, as a bit set (1: the first, 2 and 4: the batch's, 8: the single producer's); r2: how
 * many; r3: 1 when the batch's items came in order.
 */
@JCStressTest
@Outcome(id = "15, 4, 1", expect = ACCEPTABLE, desc = "every item drained exactly once, the batch in order")
@Outcome(expect = FORBIDDEN, desc = "an item lost, overwritten, drained twice, or the batch out of order")
@State
public class RingBatchClaimStress
{
    private final RequestRing<Integer> ring = new RequestRing<>(2);
    private final AtomicBoolean role = new AtomicBoolean();
    private int bits;
    private int count;
    private int order = 1;

    /** One slot is taken before the race. */
    public RingBatchClaimStress()
    {
        ring.publish(1);
    }

    /** A producer with a batch of two. */
    @Actor
    public void batch()
    {
        final long first = ring.claim(2);
        publish(first, 2);
        publish(first + 1, 4);
    }

    /** A producer with one item. */
    @Actor
    public void single()
    {
        publish(ring.claim(), 8);
    }

    private void publish(final long sequence, final int item)
    {
        while (!ring.isWritable(sequence))
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
        ring.publish(sequence, item);
    }

    private void take(final int item)
    {
        if (item == 2 && (bits & 4) != 0)
        {
            order = 0;
        }
        bits |= item;
        count++;
    }

    /**
     * Drains what is left.
     *
     * @param result r1: the bit set drained; r2: the count; r3: the batch's order
     */
    @Arbiter
    public void arbiter(final III_Result result)
    {
        ring.drain(this::take);
        result.r1 = bits;
        result.r2 = count;
        result.r3 = order;
    }
}
