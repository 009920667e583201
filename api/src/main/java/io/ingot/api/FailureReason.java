package io.ingot.api;

/**
 * Why a request failed, as the {@code reason} label of Triton's {@code nv_inference_request_failure} metric.
 * Immutable.
 */
public enum FailureReason
{
    /** Rejected by the scheduler: queue timeout (or queue full). */
    REJECTED,
    /** Cancelled by the caller. */
    CANCELED,
    /** The engine failed its batch. */
    BACKEND,
    /** Anything else (shutdown, unload, output allocation). */
    OTHER
}
