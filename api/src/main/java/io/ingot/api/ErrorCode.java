package io.ingot.api;

/**
 * Status categories of a failed request or call, as Triton names them, with the HTTP status Triton's HTTP frontend
 * maps each to. Immutable.
 */
public enum ErrorCode
{
    /** Malformed or inconsistent request, unknown model name: HTTP 400. */
    INVALID_ARG(400),
    /** Unknown model version, unknown resource: HTTP 404. */
    NOT_FOUND(404),
    /** Queue full, queue timeout, server or model stopping: HTTP 503. */
    UNAVAILABLE(503),
    /** Engine failure or a bug: HTTP 500. */
    INTERNAL(500),
    /** The caller cancelled the request: HTTP 400. */
    CANCELLED(400),
    /** Not supported by this server or model: HTTP 501. */
    UNSUPPORTED(501),
    /** The resource exists already: HTTP 400. */
    ALREADY_EXISTS(400),
    /** Anything else: HTTP 400. */
    UNKNOWN(400);

    private final int httpStatus;

    ErrorCode(final int httpStatus)
    {
        this.httpStatus = httpStatus;
    }

    /** @return the HTTP status Triton returns for this category. */
    public int httpStatus()
    {
        return httpStatus;
    }
}
