package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;

/**
 * Where an instance hands each response it finished: the one way the instance package calls back into the core
 * (an architecture rule keeps it so). An instance opens its responses and writes their outputs itself, from what it
 * was given at construction ({@link HostedModel}); then it calls this once per executed batch
 * ({@link #deliverFinals}) or once per response ({@link #deliver}: a decoupled model's, or a request ended without
 * executing). The implementation ({@code io.ingot.core.VersionDelivery}) keeps a successful response in the
 * response cache, orders finals when the model preserves ordering, ends the request's flight and calls its listener,
 * on the calling thread, with no lock held.
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

    /**
     * Delivers the final responses of one executed batch, as {@link #deliver} would each with {@code last} set, in
     * the batch's order; requests submitted together in an {@link io.ingot.api.InferenceBatch} have their
     * completions counted together (one atomic decrement per run of them instead of one per response). Every
     * request's bookkeeping is recycled: the caller must not touch the batch's requests afterwards.
     *
     * @param batch     the executed batch; a {@code null} entry (a sequence batch's padding row) answers nobody
     * @param responses {@code responses[r]} is request {@code r}'s response; each entry is cleared to {@code null}
     */
    void deliverFinals(FormedBatch batch, InferenceResponse[] responses);
}
