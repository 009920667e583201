package io.ingot.concurrency;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The instance's own pass against a submitting thread borrowing it, through the seat's run token: at most one runs
 * the instance's step at a time, and at least one runs it (the borrower falls back to the ordinary hand-off only
 * when the instance's thread is in a pass, which then sees the request).
 */
@JCStressTest
@Outcome(id = {"true, false, false", "false, true, false", "true, true, false"}, expect = ACCEPTABLE,
    desc = "one ran the step, or both one after the other")
@Outcome(expect = FORBIDDEN, desc = "nobody ran the step, or two threads ran it at once")
@State
public class BorrowExclusionStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
    private final BorrowingInstance instance = new BorrowingInstance(harness);

    /** The instance is the idle watcher before the race. */
    public BorrowExclusionStress()
    {
        harness.scheduler.tryAcquireRole(1);
        harness.scheduler.watch(instance.seat.bell());
    }

    /**
     * The instance's thread: one pass under the token (as {@code InstanceAgent.doWork}).
     *
     * @param result r1: it ran its pass
     */
    @Actor
    public void instance(final ZZZ_Result result)
    {
        if (instance.seat.enterOwn())
        {
            instance.enterStep();
            Thread.onSpinWait();
            instance.leaveStep();
            instance.seat.leaveOwn();
            result.r1 = true;
        }
    }

    /**
     * A submitting thread: borrows the idle instance and runs its step.
     *
     * @param result r2: it ran the step
     */
    @Actor
    public void borrower(final ZZZ_Result result)
    {
        if (instance.seat.tryBorrow())
        {
            instance.seat.runBorrowed();
            result.r2 = true;
        }
    }

    /**
     * @param result r3: the steps overlapped
     */
    @Arbiter
    public void arbiter(final ZZZ_Result result)
    {
        result.r3 = instance.overlapped;
    }
}
