package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.scheduler.PendingRequest;

/**
 * Where an instance hands each response it finished: the one way the instance package calls back into the core
 * (an architecture rule keeps it so). An instance opens its responses and writes their outputs itself, from what it
 * was given at construction ({@link HostedModel}); then it calls this once per response. The implementation
 * ({@code io.ingot.core.VersionDelivery}) keeps a successful response in the response cache, orders finals when the
 * model preserves ordering, ends the request's flight and calls its listener, on the calling thread, with no lock
 * held.
 *
 * <p>Called from instance threads (and, for requests ended without executing, from whichever thread ended them);
 * implementations are thread-safe.
 */
public interface ResponseDelivery
{
    /**
     * Delivers one response of a request. A final response recycles the request's bookkeeping: the caller must not
     * touch {@code request} afterwards.
     *
     * @param request  the request
     * @param response its response (outputs or error); for a decoupled model's final {@code null} when the model sent
     *                 only the final flag
     * @param last     whether it is the request's final response (always, for a one-response model); a non-final
     *                 response goes straight to the request's listener and the request stays in flight
     */
    void deliver(PendingRequest request, InferenceResponse response, boolean last);
}
