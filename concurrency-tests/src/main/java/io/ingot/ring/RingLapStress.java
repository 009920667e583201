package io.ingot.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A producer publishes twice into a ring of two slots that already holds an item, so its second item goes into the
 * slot of the first lap, while the consumer drains: the second publish must wait for the consumer to clear that
 * slot, and the consumer must see each item, in order, once.
 *
 * <p>r1: the items in the order drained, as decimal digits (123 expected); r2: how many.
 */
@JCStressTest
@Outcome(id = "123, 3", expect = ACCEPTABLE, desc = "every item drained once, in order")
@Outcome(expect = FORBIDDEN, desc = "an item lost, overwritten, drained twice or out of order")
@State
public class RingLapStress
{
    private final RequestRing<Integer> ring = new RequestRing<>(2);

    /** The first lap's first slot is taken before the race. */
    public RingLapStress()
    {
        ring.publish(1);
    }

    /** The producer: its second item laps the ring. */
    @Actor
    public void producer()
    {
        ring.publish(2);
        ring.publish(3);
    }

    /**
     * The consumer drains until it has seen three items.
     *
     * @param result r1: the order; r2: the count
     */
    @Actor
    public void consumer(final II_Result result)
    {
        final int[] seen = new int[2];
        while (seen[1] < 3)
        {
            ring.drain(item ->
            {
                seen[0] = seen[0] * 10 + item;
                seen[1]++;
            });
            Thread.onSpinWait();
        }
        result.r1 = seen[0];
        result.r2 = seen[1];
    }
}
