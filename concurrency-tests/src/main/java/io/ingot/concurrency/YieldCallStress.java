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
 * Two instances of a sequence model that yield the role to each other: instance 0 has just given the role away (its
 * slots were empty) and is about to sleep; instance 1, which took the role, finds its own slots empty and work queued
 * in instance 0's — work it drained itself, so the ring shows nothing — and yields back. Instance 0 must stay awake
 * or be rung: before calls, the yield only rang, a ring on a bell not yet armed changed nothing, and both instances
 * slept with a request queued (the stream of {@code SequenceExamplesTest} hung this way on CI).
 *
 * <p>r1: 1 instance 0 stays awake, 2 it would sleep; r2: its bell was rung.
 */
@JCStressTest
@Outcome(id = {"1, 0", "1, 1", "2, 1"}, expect = ACCEPTABLE, desc = "the yielded-to instance sees the call or is rung")
@Outcome(id = "2, 0", expect = FORBIDDEN,
    desc = "lost yield: work is queued in instance 0's slots, the role is free, and instance 0 sleeps")
@State
public class YieldCallStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(2);

    /** Instance 1 holds the role before the race. */
    public YieldCallStress()
    {
        harness.scheduler.tryAcquireRole(2);
    }

    /** Instance 1: its policy said YIELD to instance 0. */
    @Actor
    public void yielder()
    {
        harness.scheduler.yieldTo(2, 0);
    }

    /**
     * Instance 0, which yielded a moment ago, on its way to sleep.
     *
     * @param result r1: whether it would sleep
     */
    @Actor
    public void yielded(final II_Result result)
    {
        result.r1 = harness.sleepAfterYielding(0);
    }

    /**
     * @param result r2: instance 0's bell was rung
     */
    @Arbiter
    public void arbiter(final II_Result result)
    {
        result.r2 = harness.seats[0].bell().ringCount();
    }
}
