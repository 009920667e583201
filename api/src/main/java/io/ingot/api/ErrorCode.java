package io.ingot.api;

/**
 * Status categories of a failed request or call, as Triton names them, with the HTTP status Triton's HTTP frontend
 * maps each to. Immutable.
 */
public enum ErrorCode
{
    /** Malformed or inconsistent request, unknown model name: HTTP 400. */
    INVALID_ARG(400, "Invalid argument"),
    /** Unknown model version, unknown resource: HTTP 404. */
    NOT_FOUND(404, "Not found"),
    /** Queue full, queue timeout, server or model stopping: HTTP 503. */
    UNAVAILABLE(503, "Unavailable"),
    /** Engine failure or a bug: HTTP 500. */
    INTERNAL(500, "Internal"),
    /** The caller cancelled the request: HTTP 400. */
    CANCELLED(400, "Cancelled"),
    /** Not supported by this server or model: HTTP 501. */
    UNSUPPORTED(501, "Unsupported"),
    /** The resource exists already: HTTP 400. */
    ALREADY_EXISTS(400, "Already exists"),
    /** Anything else: HTTP 400. */
    UNKNOWN(400, "Unknown");

    private final int httpStatus;
    private final String statusText;

    ErrorCode(final int httpStatus, final String statusText)
    {
        this.httpStatus = httpStatus;
        this.statusText = statusText;
    }

    /**
     * @return the name Triton's status strings give this category ({@code Status::AsString}: "Internal",
     *         "Invalid argument", ...), as in the reasons of its repository index
     */
    public String statusText()
    {
        return statusText;
    }

    /** @return the HTTP status Triton returns for this category. */
    public int httpStatus()
    {
        return httpStatus;
    }
}
