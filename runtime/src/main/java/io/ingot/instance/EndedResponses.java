package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.dispatch.EndedAnswerer;
import io.ingot.scheduler.RefusalMessages;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.PendingRequest;

/**
 * Answers the requests a model version's scheduler ended without executing them — a queue timeout, a cancellation,
 * the stop, a sequence refused or expired — each with its ending's status and Triton's message, counts each as a
 * failure in the version's shared statistics, and hands it to the model's {@link ResponseDelivery} like any other
 * final (such a request never took a place in {@code preserve_ordering}'s order, so it is delivered at once). Called
 * by whichever thread ended them after it gave up the batching role: an instance, the core's timekeeper, the thread
 * that stops the model. Thread-safe.
 */
public final class EndedResponses implements EndedAnswerer
{
    private final HostedModel model;

    /**
     * @param model the model version
     */
    public EndedResponses(final HostedModel model)
    {
        this.model = model;
    }

    @Override
    public void answer(final EndedRequests ended)
    {
        for (int i = 0; i < ended.count(); i++)
        {
            final PendingRequest request = ended.request(i);
            final String message = switch (ended.ending(i))
            {
                case TIMED_OUT -> "Request timeout expired";
                case CANCELLED -> RefusalMessages.cancelled(request.request, model.name());
                case STOPPING -> RefusalMessages.stopping(request.request);
                case SEQUENCE_NOT_STARTED -> "inference request for sequence " + request.correlationText()
                    + " to model '" + model.name() + "' must specify the START flag on the first request of the "
                    + "sequence";
                case SEQUENCE_EXPIRED -> "timeout of the corresponding sequence has been expired";
            };
            fail(request, ended.ending(i).code(), message, ended.ending(i).reason());
        }
    }

    private void fail(final PendingRequest request, final ErrorCode code, final String message,
        final FailureReason reason)
    {
        final InferenceResponse response = model.openResponse(request);
        ResponseAssembly.fail(response, new InferenceException(code, message));
        model.stats().shared().requestFailed(model.clock().nanoTime() - request.acceptedNs, reason);
        model.delivery().deliver(request, response, true);
    }
}
