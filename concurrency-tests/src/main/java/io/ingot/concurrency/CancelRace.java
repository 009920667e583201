package io.ingot.concurrency;

import io.ingot.api.InferenceRequest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A caller cancelling a request while another thread submits it: the state and the outcomes of
 * {@link CancelBeginStress} and {@link CancelKeptHookStress} (jcstress's outcomes are inherited). The role holder finds
 * cancelled requests only by a sweep, which the request's cancel hook asks for (issue 34: deciding reads no request's
 * flag), so a cancellation that the flight keeps must also have run the flight's hook; r1: the request is cancelled
 * for this flight, r2: a sweep was asked for.
 */
@Outcome(id = "false, false", expect = ACCEPTABLE,
    desc = "the cancel came before the flight began: the begin cleared it (a request is cancelled per submission)")
@Outcome(id = "false, true", expect = ACCEPTABLE,
    desc = "the cancel saw the flight and its hook, but its flag was cleared by the begin: a sweep for nothing")
@Outcome(id = "true, true", expect = ACCEPTABLE,
    desc = "the cancellation holds and its hook asked for the sweep that will find it")
@Outcome(id = "true, false", expect = FORBIDDEN,
    desc = "lost cancellation: the request is flagged, but nobody asked for the sweep that would end it")
abstract class CancelRace
{
    final InferenceRequest request = new InferenceRequest("m");
    volatile boolean swept;

    /** Another thread cancels. */
    void cancel()
    {
        request.cancel();
    }

    /** @param result r1: the request is cancelled for this flight; r2: a sweep was asked for */
    void settle(final ZZ_Result result)
    {
        result.r1 = request.isCancelled();
        result.r2 = swept;
    }
}
