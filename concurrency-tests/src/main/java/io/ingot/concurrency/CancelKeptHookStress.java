package io.ingot.concurrency;

import io.ingot.api.RequestLifecycle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * {@link CancelRace} in the steady state: the request's last flight, with the same hook, has ended, so the begin
 * writes no hook (a request keeps its model's hook from flight to flight, so that a flight writes one cache line) and
 * the cancel finds the hook there already, from before the flight. The cancel must run it for a flight it sees begun,
 * and a cancellation the flight keeps must have run it.
 */
@JCStressTest
@State
public class CancelKeptHookStress extends CancelRace
{
    private final Runnable hook = () -> swept = true;

    /** The request's last flight: begun and ended with the same hook, which the request keeps. */
    public CancelKeptHookStress()
    {
        RequestLifecycle.begin(request, hook);
        RequestLifecycle.end(request);
    }

    /** The submitting thread: the next flight begins, with the hook the request kept. */
    @Actor
    public void submitter()
    {
        RequestLifecycle.begin(request, hook);
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
