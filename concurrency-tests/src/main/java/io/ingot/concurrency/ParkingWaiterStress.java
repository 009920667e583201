package io.ingot.concurrency;

import io.ingot.api.ParkingWaiter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A caller parking on a {@code ResponseFuture} against the core's thread delivering its response, step by step as
 * {@code ResponseFuture} takes them over its {@link ParkingWaiter}: the caller announces that it parks and then looks
 * for the response (a volatile read); the deliverer stores the response (a volatile store) and then wakes the waiter
 * if it announced. At least one must see the other: the caller the response (it does not park), or the deliverer the
 * announcement (it unparks) — else the caller parks for ever on a response that has arrived.
 */
@JCStressTest
@Outcome(id = {"true, true", "true, false", "false, true"}, expect = ACCEPTABLE,
    desc = "the caller found the response, or the deliverer unparked it (or both)")
@Outcome(id = "false, false", expect = FORBIDDEN,
    desc = "lost wake-up: the caller parks on a delivered response and nobody unparks it")
@State
public class ParkingWaiterStress
{
    private final ParkingWaiter parking = new ParkingWaiter();
    private volatile Object response;

    /**
     * The caller: announce, then look.
     *
     * @param result r1: it found the response
     */
    @Actor
    public void caller(final ZZ_Result result)
    {
        parking.announce();
        result.r1 = response != null;
    }

    /**
     * The deliverer: store the response, then wake.
     *
     * @param result r2: it found the caller announced (and unparked it)
     */
    @Actor
    public void deliverer(final ZZ_Result result)
    {
        response = this;
        result.r2 = parking.wake();
    }
}
