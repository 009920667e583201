package io.ingot.concurrency;

import io.ingot.api.InferenceException;
import io.ingot.scheduler.PendingRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A batch submission ({@code ModelScheduler.submitAll}: one ring claim for two requests) racing the model's stop:
 * either both are refused synchronously, or both are accepted and then ended by the stop — never one of each, never
 * one lost (after the claim, a stopped scheduler publishes a tombstone in every claimed slot).
 *
 * <p>r1: how many the submission accepted; r2: how many requests the stop ended.
 */
@JCStressTest
@Outcome(id = {"2, 2", "0, 0"}, expect = ACCEPTABLE, desc = "both accepted and ended by the stop, or both refused")
@Outcome(expect = FORBIDDEN, desc = "a request lost, answered twice, or a batch split by the stop")
@State
public class BatchStopStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
    private final PendingRequest[] pendings = {SchedulerHarness.pending("a"), SchedulerHarness.pending("b")};
    private final InferenceException[] refusals = new InferenceException[2];

    /**
     * A producer submits a batch of two.
     *
     * @param result r1: accepted
     */
    @Actor
    public void producer(final II_Result result)
    {
        try
        {
            harness.scheduler.submitAll(pendings, 2, refusals);
            result.r1 = (refusals[0] == null ? 1 : 0) + (refusals[1] == null ? 1 : 0);
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
