package io.ingot.ensemble;

import java.util.ArrayDeque;

/**
 * {@code ensemble_scheduling.max_inflight_responses} for one step: at most that many of the step's requests, over
 * every request of the ensemble, are in the composing model at once. Where Triton blocks the thread that would
 * schedule the step ({@code StepInflightRequestLimiter::Acquire}), this limiter parks the launch and runs it when
 * a slot frees, on the thread that freed it: no Ingot thread (an instance thread delivering a step's response) ever
 * waits here. Thread-safe: a short lock, never held while a launch runs.
 */
final class StepLimiter
{
    private final int limit;
    private final ArrayDeque<Runnable> parked = new ArrayDeque<>();
    private int inUse;

    StepLimiter(final int limit)
    {
        this.limit = limit;
    }

    /**
     * @param launch what to run once a slot is free, when none is now
     * @return true when a slot was taken and the caller launches now; false when {@code launch} was parked
     */
    synchronized boolean tryAcquire(final Runnable launch)
    {
        if (inUse < limit)
        {
            inUse++;
            return true;
        }
        parked.add(launch);
        return false;
    }

    /** Frees a slot: hands it to the oldest parked launch, which runs on this thread, or returns it. */
    void release()
    {
        final Runnable next;
        synchronized (this)
        {
            next = parked.poll();
            if (next == null)
            {
                inUse--;
            }
        }
        if (next != null)
        {
            next.run();
        }
    }

    /** @return the step requests in the composing model now (for tests and statistics) */
    synchronized int inUse()
    {
        return inUse;
    }

    /** @return the launches waiting for a slot */
    synchronized int parked()
    {
        return parked.size();
    }
}
