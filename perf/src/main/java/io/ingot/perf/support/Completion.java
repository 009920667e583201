package io.ingot.perf.support;

import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseListener;

import java.util.concurrent.locks.LockSupport;

/**
 * A response listener one caller thread waits on: it closes the response (after checking it) and wakes the caller.
 * Reused for every request of its caller, so waiting allocates nothing. The caller spins briefly, then parks.
 */
public final class Completion implements ResponseListener
{
    /** Spin iterations before parking: about a microsecond, enough to catch a response already on its way. */
    private static final int SPINS = 128;

    private volatile boolean done;
    private volatile Thread waiter;
    private volatile InferenceException error;

    /** Prepares for the next request; call before submitting it. */
    public void reset()
    {
        done = false;
        error = null;
    }

    @Override
    public void onResponse(final InferenceResponse response)
    {
        if (!response.isOk())
        {
            error = response.error();
        }
        response.close();
        done = true;
        final Thread thread = waiter;
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Waits for the response.
     *
     * @throws InferenceException the response's error, if it failed
     */
    public void await()
    {
        for (int i = 0; i < SPINS && !done; i++)
        {
            Thread.onSpinWait();
        }
        if (!done)
        {
            waiter = Thread.currentThread();
            while (!done)
            {
                LockSupport.park(this);
            }
            waiter = null;
        }
        final InferenceException failure = error;
        if (failure != null)
        {
            throw failure;
        }
    }

    /** @return true once the response arrived. */
    public boolean isDone()
    {
        return done;
    }
}
