package io.ingot.concurrency;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The hand-over of the batching role against an arrival: the leader dispatched everything it had and hands the role
 * off, looking at the ring's next slot (not the producers' tail) for work left; meanwhile a producer claims and
 * publishes a request. The other instance follows, asleep. Whether or not the leader's look sees the request, the
 * follower must be called: by the leader when the request was published before its look, by the producer (which finds
 * no watcher) otherwise.
 *
 * <p>r1: the follower was called; r2: how often its bell was rung.
 */
@JCStressTest
@Outcome(id = {"1, 1", "1, 2"}, expect = ACCEPTABLE, desc = "the follower is called, by the producer or the leader")
@Outcome(id = "0, 0", expect = FORBIDDEN,
    desc = "lost arrival: a request waits, the role is free, the follower sleeps uncalled")
@Outcome(expect = FORBIDDEN, desc = "a call without a ring on an armed bell, or a ring without a call")
@State
public class HandOffArrivalStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(2);

    /** Instance 1 leads with nothing queued; instance 2 follows and sleeps. */
    public HandOffArrivalStress()
    {
        harness.scheduler.tryAcquireRole(1);
        harness.seats[1].following(true);
        harness.seats[1].bell().arm();
    }

    /** The leader: hands the role off before it executes its batch. */
    @Actor
    public void leader()
    {
        harness.scheduler.handOff(1);
    }

    /** A caller submits a request. */
    @Actor
    public void producer()
    {
        harness.scheduler.submit(SchedulerHarness.pending("arriving"));
    }

    /**
     * @param result r1: the follower was called; r2: its bell's rings
     */
    @Arbiter
    public void arbiter(final II_Result result)
    {
        result.r1 = harness.seats[1].isCalled() ? 1 : 0;
        result.r2 = harness.seats[1].bell().ringCount();
    }
}
