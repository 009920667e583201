package io.ingot.concurrency;

import io.ingot.scheduler.LevelAdmission;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two submissions racing for the last place of a level whose {@code max_queue_size} is 1: exactly one is admitted,
 * as under Triton's scheduler lock.
 */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one admitted, the other refused")
@Outcome(id = "true, true", expect = FORBIDDEN, desc = "the limit was exceeded")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "a free place was refused")
@State
public class AdmissionStress
{
    private final LevelAdmission admission = SchedulerHarness.limitedToOne().admission;

    /**
     * @param result r1: the first submission was admitted
     */
    @Actor
    public void first(final ZZ_Result result)
    {
        result.r1 = admission.tryAdmit(0);
    }

    /**
     * @param result r2: the second submission was admitted
     */
    @Actor
    public void second(final ZZ_Result result)
    {
        result.r2 = admission.tryAdmit(0);
    }
}
