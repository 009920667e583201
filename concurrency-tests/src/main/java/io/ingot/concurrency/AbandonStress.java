package io.ingot.concurrency;

import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A slot claimed before its request's bookkeeping was written, then abandoned because the request was refused after
 * the claim (invalid, say: {@code ModelScheduler.claim}, then {@code abandon}): the tombstone it leaves neither hides
 * a request claimed after it nor counts as one, and a stop neither waits for it forever nor ends it.
 */
public final class AbandonStress
{
    private AbandonStress()
    {
    }

    /** Claims a slot for a request that is then refused, and abandons it. @return 1 claimed, 0 refused (stopping) */
    private static int claimAndAbandon(final SchedulerHarness harness, final InferenceRequest refused)
    {
        try
        {
            harness.scheduler.abandon(harness.scheduler.claim(refused));
            return 1;
        }
        catch (final InferenceException stopping)
        {
            return 0;
        }
    }

    /**
     * The abandoning producer against another producer's submission; afterwards the model stops and ends its queue.
     * r1: how many requests the stop ended — the other request, exactly once, whichever slot came first.
     */
    @JCStressTest
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "the submitted request ended once, the tombstone skipped")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "lost: the request was never drained past the tombstone")
    @Outcome(id = "2", expect = FORBIDDEN, desc = "the abandoned slot ended as a request")
    @State
    public static class AgainstSubmission
    {
        private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
        private final InferenceRequest refused = new InferenceRequest("stress").id("refused");

        /** A producer claims a slot, then abandons it. */
        @Actor
        public void abandoner()
        {
            claimAndAbandon(harness, refused);
        }

        /** Another producer submits. */
        @Actor
        public void producer()
        {
            harness.scheduler.submit(SchedulerHarness.pending("p"));
        }

        /** @param result r1: the requests the stop ended */
        @Arbiter
        public void stop(final I_Result result)
        {
            result.r1 = harness.stopAndEndQueue();
        }
    }

    /**
     * The abandoning producer against the model's stop: the stop, which waits for every slot claimed before it to be
     * published, returns, and ends nothing. r1: 1 the claim was made (0: refused, the model was stopping); r2: how
     * many requests the stop ended.
     */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 0"}, expect = ACCEPTABLE, desc = "the stop ended nothing: a tombstone is no request")
    @Outcome(id = {"1, 1", "0, 1"}, expect = FORBIDDEN, desc = "the abandoned slot ended as a request")
    @State
    public static class AgainstStop
    {
        private final SchedulerHarness harness = SchedulerHarness.defaultScheduler(1);
        private final InferenceRequest refused = new InferenceRequest("stress").id("refused");

        /** @param result r1: the claim was made */
        @Actor
        public void abandoner(final II_Result result)
        {
            result.r1 = claimAndAbandon(harness, refused);
        }

        /** @param result r2: the requests the stop ended */
        @Actor
        public void stopper(final II_Result result)
        {
            result.r2 = harness.stopAndEndQueue();
        }
    }
}
