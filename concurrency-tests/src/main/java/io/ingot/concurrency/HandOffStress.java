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
 * The hand-over of the batching role: the leader dispatched a batch and hands the role off before it executes, with
 * a request still waiting; a second instance, idle, starts following. The follower must end up leading, awake, or
 * rung — never asleep with the role free and nobody to ring it.
 *
 * <p>r1: 0 the follower took the role, 1 it stayed awake, 2 it would sleep; r2: its bell was rung.
 */
@JCStressTest
@Outcome(id = {"0, 0", "0, 1", "1, 0", "1, 1", "2, 1"}, expect = ACCEPTABLE,
    desc = "the follower leads, stays awake, or is rung")
@Outcome(id = "2, 0", expect = FORBIDDEN,
    desc = "lost hand-over: a request waits, the role is free, the follower sleeps")
@State
public class HandOffStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(2);

    /** Instance 1 leads, and a request waits, before the race. */
    public HandOffStress()
    {
        harness.scheduler.tryAcquireRole(1);
        harness.scheduler.submit(SchedulerHarness.pending("waiting"));
    }

    /** The leader: hands the role off (it dispatched a batch). */
    @Actor
    public void leader()
    {
        harness.scheduler.handOff(1);
    }

    /**
     * The second instance becomes idle.
     *
     * @param result r1: what it ends up doing
     */
    @Actor
    public void follower(final II_Result result)
    {
        result.r1 = harness.follow(1);
    }

    /**
     * @param result r2: the follower's bell was rung
     */
    @Arbiter
    public void arbiter(final II_Result result)
    {
        result.r2 = harness.seats[1].bell().ringCount() != 0 ? 1 : 0;
    }
}
