package io.ingot.ring;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A producer that withdraws (publishes a tombstone) against a consumer that waits, as a stopping model does, for
 * every claimed slot to be drained: the consumer never hands the tombstone over, and once it has drained up to the
 * last claim it has seen the item published before it.
 *
 * <p>r1: the items the consumer handed over (their sum); r2: the last drained sequence.
 */
@JCStressTest
@Outcome(id = {"5, 1", "5, 0", "0, -1"}, expect = ACCEPTABLE,
    desc = "the item and the tombstone drained (or not yet claimed when the consumer looked)")
@Outcome(expect = FORBIDDEN, desc = "the tombstone handed over, an item lost, or a claimed slot left behind")
@State
public class RingTombstoneStress
{
    private final RequestRing<Long> ring = new RequestRing<>(4);
    private long sum;

    /** A producer publishes an item, then claims again and withdraws. */
    @Actor
    public void producer()
    {
        ring.publish(5L);
        ring.publish(ring.tryClaim(), null);
    }

    /** The consumer drains everything claimed so far, waiting for slots claimed but not yet published. */
    @Actor
    public void consumer()
    {
        final long claimed = ring.claimed();
        while (ring.drained() < claimed)
        {
            ring.drain(item -> sum += item);
            Thread.onSpinWait();
        }
    }

    /**
     * @param result r1: the sum handed over; r2: the last drained sequence
     */
    @Arbiter
    public void arbiter(final JJ_Result result)
    {
        result.r1 = sum;
        result.r2 = ring.drained();
    }
}
