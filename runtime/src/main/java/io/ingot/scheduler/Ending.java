package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;

/** Why a scheduler ended a request without executing it, with Triton's status and failure reason for each. */
public enum Ending
{
    /** Its queue timeout expired under a REJECT policy: UNAVAILABLE {@code Request timeout expired}. */
    TIMED_OUT(ErrorCode.UNAVAILABLE, FailureReason.REJECTED),
    /** The caller cancelled it while it was queued: CANCELLED. */
    CANCELLED(ErrorCode.CANCELLED, FailureReason.CANCELED),
    /** The model stopped while it was queued: UNAVAILABLE, "scheduler ... has stopped accepting". */
    STOPPING(ErrorCode.UNAVAILABLE, FailureReason.OTHER),
    /**
     * A sequence batcher got a request without START for a sequence it does not know (never started, ended, or
     * released as idle): INVALID_ARG, "... must specify the START flag on the first request of the sequence".
     */
    SEQUENCE_NOT_STARTED(ErrorCode.INVALID_ARG, FailureReason.OTHER),
    /**
     * A backlogged sequence's queue timeout expired: UNAVAILABLE, "timeout of the corresponding sequence has been
     * expired".
     */
    SEQUENCE_EXPIRED(ErrorCode.UNAVAILABLE, FailureReason.REJECTED);

    private final ErrorCode code;
    private final FailureReason reason;

    Ending(final ErrorCode code, final FailureReason reason)
    {
        this.code = code;
        this.reason = reason;
    }

    /** @return the status the request is answered with */
    public ErrorCode code()
    {
        return code;
    }

    /** @return the failure reason statistics count it under */
    public FailureReason reason()
    {
        return reason;
    }
}
