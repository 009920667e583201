package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;

/**
 * Answers requests the scheduler ends without executing them (timeouts, cancellations, shutdown).
 */
@FunctionalInterface
public interface RequestCompleter
{
    /**
     * Sends a request its error response and records the failure.
     *
     * @param request the request
     * @param code    status category
     * @param message error message
     * @param reason  failure reason for statistics
     */
    void fail(PendingRequest request, ErrorCode code, String message, FailureReason reason);
}
