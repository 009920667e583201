package io.ingot.api;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether one {@link InferenceRequest} is in flight, and its cancellation: the part of a request that other threads
 * touch while the core holds it. A successful submit begins the flight (once: a second submit of a request in flight
 * fails), the delivery of its response ends it; a cancellation flags the request and runs the hook the core gave when
 * the flight began, which wakes the thread that will answer it.
 *
 * <p>Thread-safety: every method may be called from any thread. The flag and the hook are volatile and the flight an
 * atomic, so a cancel from another thread sees the hook of the flight it races with, or none; a cancel that arrives
 * before the next flight begins is cleared by it (a request is cancelled for one submission at most).
 */
final class RequestFlight
{
    private volatile boolean cancelled;
    private volatile Runnable cancelHook;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    /**
     * @param hook what {@link #cancel()} runs during this flight (wakes the thread that will answer the request)
     * @return false when the request is in flight already
     */
    boolean tryBegin(final Runnable hook)
    {
        if (!inFlight.compareAndSet(false, true))
        {
            return false;
        }
        cancelled = false;
        cancelHook = hook;
        return true;
    }

    /** Ends the flight: the response was delivered; the hook is dropped so that a late cancel wakes no one. */
    void end()
    {
        cancelHook = null;
        inFlight.set(false);
    }

    /** Flags the request and runs the flight's hook, if a flight holds one; returns at once. */
    void cancel()
    {
        cancelled = true;
        final Runnable hook = cancelHook;
        if (hook != null)
        {
            hook.run();
        }
    }

    /** @return whether {@link #cancel()} was called since the flight began */
    boolean isCancelled()
    {
        return cancelled;
    }

    /** @return whether the request is in flight */
    boolean isInFlight()
    {
        return inFlight.get();
    }
}
