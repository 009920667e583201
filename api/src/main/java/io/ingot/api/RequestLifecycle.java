package io.ingot.api;

/**
 * Hooks by which the core marks a request in flight and done. Public only because the core lives in another
 * package; applications never call it. Thread-safe: {@link #begin} is atomic, so of two threads submitting the same
 * request at once exactly one succeeds.
 */
public final class RequestLifecycle
{
    private RequestLifecycle()
    {
    }

    /**
     * Marks the request in flight and clears any earlier cancellation.
     *
     * @param request    the request being accepted
     * @param cancelHook run by {@link InferenceRequest#cancel()} while the request is in flight
     * @return false when the request is already in flight
     */
    public static boolean begin(final InferenceRequest request, final Runnable cancelHook)
    {
        return request.tryBeginFlight(cancelHook);
    }

    /**
     * @param request a request
     * @return the core's bookkeeping attached to it by an earlier submission, or {@code null}
     */
    public static Object attachment(final InferenceRequest request)
    {
        return request.coreState();
    }

    /**
     * Attaches the core's bookkeeping to a request, to be reused when the caller submits the request again. The
     * submitting thread only (the request is not in flight yet).
     *
     * @param request a request
     * @param state   the bookkeeping
     */
    public static void attach(final InferenceRequest request, final Object state)
    {
        request.coreState(state);
    }

    /**
     * Marks the request done, so that the caller may reuse it.
     *
     * @param request the request whose response is being delivered
     */
    public static void end(final InferenceRequest request)
    {
        request.endFlight();
    }

    /**
     * Marks the request done and drops the cancel hook its flight began with: for a hook made for that flight alone
     * ({@link #end} keeps the hook for the next flight, so a hook the core gives every flight of a model costs no
     * write per flight; one made per flight would otherwise stay reachable from the request until it is submitted
     * again).
     *
     * @param request the request whose response is being delivered
     */
    public static void endDroppingHook(final InferenceRequest request)
    {
        request.endFlightDroppingHook();
    }
}
