package io.ingot.concurrency;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** Two idle instances reach for the free batching role at once: exactly one holds it. */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one leads")
@Outcome(id = "true, true", expect = FORBIDDEN, desc = "two threads would run the single-threaded policy")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "a free role was taken by nobody")
@State
public class RoleStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(2);

    /**
     * @param result r1: the first instance holds the role
     */
    @Actor
    public void first(final ZZ_Result result)
    {
        result.r1 = harness.scheduler.tryAcquireRole(1);
    }

    /**
     * @param result r2: the second instance holds the role
     */
    @Actor
    public void second(final ZZ_Result result)
    {
        result.r2 = harness.scheduler.tryAcquireRole(2);
    }
}
