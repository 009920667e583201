package io.ingot.concurrency;

import io.ingot.dispatch.ModelScheduler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The timekeeper gives the batching role back after a sweep, with a request still waiting, while an instance that
 * just finished its batch finds the role taken and starts following. The instance must end up leading, awake, or
 * rung — never asleep with the role free and work queued (the lost wake-up this test was written for).
 *
 * <p>r1: 0 the follower took the role, 1 it stayed awake, 2 it would sleep; r2: its bell was rung.
 */
@JCStressTest
@Outcome(id = {"0, 0", "0, 1", "1, 0", "1, 1", "2, 1"}, expect = ACCEPTABLE,
    desc = "the follower leads, stays awake, or is rung")
@Outcome(id = "2, 0", expect = FORBIDDEN, desc = "lost wake-up: a request waits, the role is free, the instance sleeps")
@State
public class SweepReleaseStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(2);

    /** A request waits, and the timekeeper holds the role for a sweep, before the race. */
    public SweepReleaseStress()
    {
        harness.scheduler.submit(SchedulerHarness.pending("waiting"));
        harness.scheduler.tryAcquireRole(ModelScheduler.TIMEKEEPER);
    }

    /** The timekeeper: its sweep is done. */
    @Actor
    public void timekeeper()
    {
        harness.scheduler.releaseAfterSweep();
    }

    /**
     * An instance becomes idle.
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
