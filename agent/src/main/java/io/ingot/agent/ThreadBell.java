package io.ingot.agent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Bell} for a waiter in this process: it parks ({@link LockSupport}) and a ring unparks it. The waiter is
 * the thread that last {@link #arm() armed} the bell. A ring that finds the bell disarmed costs a fence and a load;
 * only a ring on an armed bell changes the ring count and unparks. Thread-safe for any number of wakers and one
 * waiter at a time.
 */
public final class ThreadBell extends ThreadBellFields.PadAfter implements Bell
{
    private static final VarHandle RINGS;
    private static final VarHandle ARMED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            RINGS = lookup.findVarHandle(ThreadBellFields.Hot.class, "rings", int.class);
            ARMED = lookup.findVarHandle(ThreadBellFields.Hot.class, "armed", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }


    @Override
    public int arm()
    {
        final Thread self = Thread.currentThread();
        if (waiter != self)
        {
            waiter = self;
        }
        final int seen = (int)RINGS.getVolatile(this);
        ARMED.setVolatile(this, 1);
        VarHandle.fullFence();
        return seen;
    }

    @Override
    public boolean sleep(final int token, final long maxNanos)
    {
        if ((int)RINGS.getVolatile(this) != token)
        {
            return true;
        }
        LockSupport.parkNanos(this, maxNanos);
        return (int)RINGS.getVolatile(this) != token;
    }

    @Override
    public void disarm()
    {
        ARMED.setRelease(this, 0);
    }

    @Override
    public boolean ring()
    {
        VarHandle.fullFence();
        if ((int)ARMED.getVolatile(this) == 0)
        {
            return false;
        }
        RINGS.getAndAdd(this, 1);
        final Thread sleeper = waiter;
        if (sleeper != null)
        {
            LockSupport.unpark(sleeper);
        }
        return true;
    }

    /** @return how many rings found the bell armed so far (for tests and diagnostics) */
    public int ringCount()
    {
        return (int)RINGS.getVolatile(this);
    }

    /** @return whether the waiter has said it may be sleeping (a racy read, for decisions that tolerate it) */
    public boolean isArmed()
    {
        return (int)ARMED.getVolatile(this) != 0;
    }
}
