package io.ingot.concurrency;

import io.ingot.api.InferenceException;
import io.ingot.scheduler.EndedRequests;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@code submitAndRun} against the model's stop: the submitter publishes, borrows the idle watcher and runs its
 * batch on its own thread, while the stop refuses new requests and wakes the instance. Afterwards the instance's own
 * thread does what it does when woken at a stop (takes the role, ends what is queued) and the stopping thread ends
 * the queue. The request is refused, or executed by the borrower, or ended by the stop — exactly one of them — and
 * the instance's thread has work (it must wake to finish).
 */
@JCStressTest
@Outcome(id = {"0, 0, 1", "1, 1, 1"}, expect = ACCEPTABLE,
    desc = "refused; or accepted and answered exactly once; and the instance is woken to finish")
@Outcome(expect = FORBIDDEN, desc = "a request lost or answered twice, or the instance left asleep at the stop")
@State
public class BorrowStopStress
{
    private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
    private final BorrowingInstance instance = new BorrowingInstance(harness);
    private int accepted;

    /** The instance is the idle watcher before the race. */
    public BorrowStopStress()
    {
        harness.scheduler.tryAcquireRole(1);
        harness.scheduler.watch(instance.seat.bell());
    }

    /** A submitting thread that runs its request's batch itself when it can. */
    @Actor
    public void submitter()
    {
        try
        {
            harness.scheduler.submitAndRun(SchedulerHarness.pending("b"));
            accepted = 1;
        }
        catch (final InferenceException refused)
        {
            accepted = 0;
        }
    }

    /** The model stops. */
    @Actor
    public void stopper()
    {
        harness.scheduler.stop();
    }

    /**
     * @param result r1: accepted; r2: answered (executed or ended); r3: the instance's thread has work to finish
     */
    @Arbiter
    public void arbiter(final III_Result result)
    {
        result.r3 = instance.hasWork() ? 1 : 0;
        final EndedRequests ended = new EndedRequests();
        // The instance's thread, woken by the stop: its role (if it holds it) ends the queue; then the stopping thread.
        if (harness.scheduler.tryAcquireRole(1))
        {
            harness.scheduler.drainForStop(ended);
            harness.scheduler.releaseRole(1);
        }
        harness.scheduler.endQueueAtStop(ended);
        result.r1 = accepted;
        result.r2 = instance.executed + ended.count();
    }
}
