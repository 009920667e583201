package io.ingot.concurrency;

import io.ingot.agent.ThreadBell;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A borrowed step that leaves work to the instance (a queue delay runs, requests are left) against the instance's
 * thread going to sleep: the instance arms its bell and looks for work, which it does not see while the token is
 * borrowed; the borrower marks the call, gives the token back, fences and rings if the instance has work. Either the
 * instance's last look sees the work, or its bell was rung: the instance never sleeps while work it must do is left.
 */
@JCStressTest
@Outcome(id = {"true, true", "true, false", "false, true"}, expect = ACCEPTABLE,
    desc = "the instance saw its work, or the borrower rang it")
@Outcome(id = "false, false", expect = FORBIDDEN,
    desc = "lost wake-up: the instance sleeps with work the borrower handed back")
@State
public class BorrowWakeStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
    private final BorrowingInstance instance = new BorrowingInstance(harness);
    private final ThreadBell bell = instance.seat.bell();

    /** The instance holds the role (the watcher) before the race; nothing is queued, so a borrowed step hands back. */
    public BorrowWakeStress()
    {
        harness.scheduler.tryAcquireRole(1);
        harness.scheduler.watch(bell);
    }

    /**
     * The instance's thread: arm, last look.
     *
     * @param result r1: it would stay awake
     */
    @Actor
    public void instance(final ZZ_Result result)
    {
        bell.arm();
        result.r1 = instance.hasWork();
    }

    /** A submitting thread that borrowed the idle instance and whose step handed the work back. */
    @Actor
    public void borrower()
    {
        if (instance.seat.tryBorrow())
        {
            instance.seat.runBorrowed();
        }
    }

    /**
     * @param result r2: the instance's bell was rung
     */
    @Arbiter
    public void arbiter(final ZZ_Result result)
    {
        result.r2 = bell.ringCount() != 0;
    }
}
