package io.ingot.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Park versus delivery for one waiting thread, the protocol under {@link ResponseFuture}: the waiter
 * {@link #announce announces} that it parks and then looks for its result once more before every park; the deliverer
 * publishes the result (a volatile store) and then {@link #wake wakes} the waiter only if it announced. Each side
 * fences between its store and its look, so at least one sees the other: either the waiter finds the result and does
 * not park, or the deliverer finds the announcement and unparks it — never neither (jcstress
 * {@code ParkingWaiterStress}). A waiter that never parks costs the deliverer one fence and one read, no system call.
 *
 * <p>Threads: one waiter at a time ({@link #announce}, {@link #withdraw}); any deliverer ({@link #wake}).
 */
public final class ParkingWaiter
{
    private static final VarHandle PARKED;

    static
    {
        try
        {
            PARKED = MethodHandles.lookup().findVarHandle(ParkingWaiter.class, "parked", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private volatile int parked;
    private volatile Thread waiter;

    /**
     * The waiter: about to park. Afterwards it must look for its result again before each {@code LockSupport.park},
     * and call {@link #withdraw} once it has the result.
     */
    public void announce()
    {
        waiter = Thread.currentThread();
        PARKED.setVolatile(this, 1);
        VarHandle.fullFence();
    }

    /** The waiter: it has its result and parks no more. */
    public void withdraw()
    {
        PARKED.setRelease(this, 0);
    }

    /**
     * The deliverer, after publishing the result: unparks the waiter if it announced.
     *
     * @return whether it unparked the waiter
     */
    public boolean wake()
    {
        VarHandle.fullFence();
        if ((int)PARKED.getVolatile(this) != 0)
        {
            LockSupport.unpark(waiter);
            return true;
        }
        return false;
    }
}
