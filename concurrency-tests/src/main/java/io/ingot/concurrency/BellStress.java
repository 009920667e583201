package io.ingot.concurrency;

import io.ingot.agent.ThreadBell;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Publish versus sleep on a {@link ThreadBell}: a waiter arms the bell and then looks for work; a waker publishes work
 * (a release store, as the intake ring's publication is) and then rings. At least one must see the other: the waiter
 * the work, or the waker the armed flag — else the waiter sleeps with work waiting and nobody wakes it.
 */
@JCStressTest
@Outcome(id = {"true, true", "true, false", "false, true"}, expect = ACCEPTABLE,
    desc = "the waiter found the work, or the waker rang it (or both)")
@Outcome(id = "false, false", expect = FORBIDDEN,
    desc = "lost wake-up: the waiter would sleep on work nobody tells it about")
@State
public class BellStress
{
    private static final VarHandle WORK;

    static
    {
        try
        {
            WORK = MethodHandles.lookup().findVarHandle(BellStress.class, "work", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ThreadBell bell = new ThreadBell();
    @SuppressWarnings("unused")
    private boolean work;

    /**
     * The waiter: arm, then look.
     *
     * @param result r1: it saw the work
     */
    @Actor
    public void waiter(final ZZ_Result result)
    {
        bell.arm();
        result.r1 = (boolean)WORK.getAcquire(this);
    }

    /**
     * The waker: publish, then ring.
     *
     * @param result r2: it found the bell armed (and rang it)
     */
    @Actor
    public void waker(final ZZ_Result result)
    {
        WORK.setRelease(this, true);
        result.r2 = bell.ring();
    }
}
