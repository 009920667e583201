package io.ingot.concurrency;

import io.ingot.api.InferenceException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A submission racing the model's stop: the request is either refused synchronously, or accepted and then ended by
 * the stop — exactly one answer either way (a producer that claimed its slot after the stop publishes a tombstone).
 *
 * <p>r1: 1 the submission was accepted; r2: how many requests the stop ended.
 */
@JCStressTest
@Outcome(id = {"1, 1", "0, 0"}, expect = ACCEPTABLE, desc = "accepted and ended by the stop, or refused")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost: accepted, never answered")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "answered twice: refused, and ended by the stop too")
@State
public class StopStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);

    /**
     * A producer submits.
     *
     * @param result r1: accepted
     */
    @Actor
    public void producer(final II_Result result)
    {
        try
        {
            harness.scheduler.submit(SchedulerHarness.pending("p"));
            result.r1 = 1;
        }
        catch (final InferenceException refused)
        {
            result.r1 = 0;
        }
    }

    /**
     * The model stops and ends its queue.
     *
     * @param result r2: requests ended
     */
    @Actor
    public void stopper(final II_Result result)
    {
        result.r2 = harness.stopAndEndQueue();
    }
}
