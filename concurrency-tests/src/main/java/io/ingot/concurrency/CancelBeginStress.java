package io.ingot.concurrency;

import io.ingot.api.RequestLifecycle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * {@link CancelRace} on a request's first flight: the submit installs a new hook and then clears the flag left from
 * an earlier flight; the cancel sets the flag and then runs the hook it reads, if it sees the flight.
 */
@JCStressTest
@State
public class CancelBeginStress extends CancelRace
{
    /** The submitting thread: the flight begins, with a hook that asks for a sweep. */
    @Actor
    public void submitter()
    {
        RequestLifecycle.begin(request, () -> swept = true);
    }

    /** Another thread cancels. */
    @Actor
    public void canceller()
    {
        cancel();
    }

    /** @param result r1: the request is cancelled for this flight; r2: a sweep was asked for */
    @Arbiter
    public void outcome(final ZZ_Result result)
    {
        settle(result);
    }
}
