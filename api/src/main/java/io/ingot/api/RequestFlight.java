package io.ingot.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Whether one {@link InferenceRequest} is in flight, and its cancellation: the part of a request that other threads
 * touch while the core holds it. A successful submit begins the flight (once: a second submit of a request in flight
 * fails), the delivery of its response ends it; a cancellation flags the request and, while it is in flight, runs the
 * hook the core gave when the flight began, which wakes the thread that will answer it.
 *
 * <p>Thread-safety: every method may be called from any thread. The flight begins with a compare-and-set, and the
 * flag and the hook are written with volatile stores, so a cancel from another thread that keeps its flag sees the
 * flight begun and its hook; a cancel that arrives before the next flight begins is cleared by it (a request is
 * cancelled for one submission at most). The flight ends with a release store, not a volatile one: the thread that
 * delivers responses ends one flight per request, and a volatile store there is a full fence that waits for this
 * line, which the submitting thread wrote last. What happened before the end is visible to whoever sees the flight
 * ended (the next {@link #tryBegin}'s compare-and-set, {@link #isInFlight}); a cancel that reads the flight just as it
 * ends wakes the answering thread once for nothing.
 *
 * <p>One line per flight, wherever the object lies: a flight writes only the two flags, which sit side by side in one
 * 8-byte word ({@link RequestFlightFields}). The hook is written when it differs from the last flight's and kept after
 * the flight ends (a model's hook is the same for all its flights; a cancel after the end finds the flight ended and
 * runs nothing): when the begin wrote the hook and the end cleared it, one object address in eight put the hook's
 * word on the next line, every flight then wrote two lines on both threads, and a submitter keeping 64 requests in
 * flight ran at 3.4–4.5 M requests/s instead of 5.0–6.0 M (issue 34; the slots of one run are allocated at one
 * stride, so a run had all, half or none of its requests so). A core whose hook belongs to one flight drops it with
 * {@link #endDroppingHook()}.
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
        // The hook (when it changes) before the flag's clear: a cancel whose flag outlives the clear set it after this
        // begin looked at it, so it reads this hook and this flight (volatile accesses are totally ordered), runs the
        // hook and asks for the sweep that finds the flag.
        if (cancelHook != hook)
        {
            cancelHook = hook;
        }
        if (cancelled)
        {
            cancelled = false;  // only when set: a flight that was not cancelled writes no more than its CAS did
        }
        return true;
    }

    /** Ends the flight: the response was delivered; the hook stays for the next flight; a later cancel runs none. */
    void end()
    {
        IN_FLIGHT.setRelease(this, false);
    }

    /** Ends the flight and drops its hook: for a hook made for this flight alone, which the request must not keep. */
    void endDroppingHook()
    {
        CANCEL_HOOK.setRelease(this, (Runnable)null);
        IN_FLIGHT.setRelease(this, false);
    }

    /** Flags the request and, while it is in flight, runs the flight's hook; returns at once. */
    void cancel()
    {
        cancelled = true;
        // The flag, then the hook, then the flight (volatile accesses are totally ordered): a flag that the begin did
        // not clear was set after the begin's compare-and-set, so the flight is seen begun and the hook it installed.
        final Runnable hook = cancelHook;
        if (hook != null && inFlight)
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
