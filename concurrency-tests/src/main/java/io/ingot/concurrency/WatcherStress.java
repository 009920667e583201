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
 * A submission against the idle instance that holds the batching role: the instance becomes the watcher, arms its
 * bell and looks for news; the producer publishes into the intake ring and rings the watcher. Either the instance
 * sees the request, or its bell was rung.
 */
@JCStressTest
@Outcome(id = {"true, true", "true, false", "false, true"}, expect = ACCEPTABLE,
    desc = "the watcher saw the arrival, or the producer rang it")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up: the request waits for an instance that sleeps")
@State
public class WatcherStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
    private final ThreadBell bell = harness.seats[0].bell();

    /** The instance holds the role before the race. */
    public WatcherStress()
    {
        harness.scheduler.tryAcquireRole(1);
    }

    /**
     * The idle leader: watch, arm, look.
     *
     * @param result r1: it saw news
     */
    @Actor
    public void leader(final ZZ_Result result)
    {
        harness.scheduler.watch(bell);
        bell.arm();
        result.r1 = harness.scheduler.hasNews();
    }

    /** The producer: submit (publish, ring the watcher). */
    @Actor
    public void producer()
    {
        harness.scheduler.submit(SchedulerHarness.pending("p"));
    }

    /**
     * @param result r2: the leader's bell was rung
     */
    @Arbiter
    public void arbiter(final ZZ_Result result)
    {
        result.r2 = bell.ringCount() != 0;
    }
}
