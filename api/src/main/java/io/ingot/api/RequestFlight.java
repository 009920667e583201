package io.ingot.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Whether one {@link InferenceRequest} is in flight, and its cancellation: the part of a request that other threads
 * touch while the core holds it. A successful submit begins the flight (once: a second submit of a request in flight
 * fails), the delivery of its response ends it; a cancellation flags the request and runs the hook the core gave when
 * the flight began, which wakes the thread that will answer it.
 *
 * <p>Thread-safety: every method may be called from any thread. The flight begins with a compare-and-set and the flag
 * and the hook are written with volatile stores, so a cancel from another thread sees the hook of the flight it races
 * with, or none; a cancel that arrives before the next flight begins is cleared by it (a request is cancelled for one
 * submission at most). The flight ends with release stores, not volatile ones: the thread that delivers responses
 * ends one flight per request, and a volatile store there is a full fence that waits for this line, which the
 * submitting thread wrote last. What happened before the end is visible to whoever sees the flight ended (the next
 * {@link #tryBegin}'s compare-and-set, {@link #isInFlight}); a cancel that reads the hook just as it is dropped wakes
 * the answering thread once for nothing.
 *
 * <p>Fields: {@code cancelled}, {@code cancelHook} and {@code inFlight} are declared in {@link RequestFlightFields},
 * on a cache line of their own (the flag is a field there, not an {@code AtomicBoolean}: a flight's writes take one
 * line, not two).
 */
final class RequestFlight extends RequestFlightFields.PadAfter
{
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle CANCEL_HOOK;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            IN_FLIGHT = lookup.findVarHandle(RequestFlightFields.Hot.class, "inFlight", boolean.class);
            CANCEL_HOOK = lookup.findVarHandle(RequestFlightFields.Hot.class, "cancelHook", Runnable.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * @param hook what {@link #cancel()} runs during this flight (wakes the thread that will answer the request)
     * @return false when the request is in flight already
     */
    boolean tryBegin(final Runnable hook)
    {
        if (!IN_FLIGHT.compareAndSet(this, false, true))
        {
            return false;
        }
        // The hook before the flag: a cancel whose flag outlives this clear has read the hook after it (volatile
        // accesses are totally ordered), so it runs the hook and asks for the sweep that finds the flag.
        cancelHook = hook;
        cancelled = false;
        return true;
    }

    /** Ends the flight: the response was delivered; the hook is dropped so that a later cancel wakes no one. */
    void end()
    {
        CANCEL_HOOK.setRelease(this, (Runnable)null);
        IN_FLIGHT.setRelease(this, false);
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
        return inFlight;
    }
}
