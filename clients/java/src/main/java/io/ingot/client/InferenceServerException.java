package io.ingot.client;

/**
 * What every call of the KServe v2 clients throws when it fails, as Triton's clients raise
 * {@code InferenceServerException}: the server's error message, the status it came with (the HTTP status code, or
 * {@code StatusCode.NAME} for gRPC, as {@code tritonclient} writes them; null for an error found in the client), and
 * debug details where the transport has them. {@link #getMessage()} is {@code [status] message}, as Triton's
 * {@code str(e)}.
 */
public class InferenceServerException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String message;
    private final String status;
    private final String debugDetails;

    /**
     * An error the client found itself (no status).
     *
     * @param message what went wrong
     */
    public InferenceServerException(final String message)
    {
        this(message, null, null, null);
    }

    /**
     * @param message      the server's or the transport's message
     * @param status       the HTTP status code or gRPC status name, or null
     * @param debugDetails more detail for debugging, or null
     * @param cause        the underlying exception, or null
     */
    public InferenceServerException(final String message, final String status, final String debugDetails,
        final Throwable cause)
    {
        super(status == null ? message : "[" + status + "] " + message, cause);
        this.message = message;
        this.status = status;
        this.debugDetails = debugDetails;
    }

    /** @return the message alone, without the status (Triton's {@code message()}) */
    public String message()
    {
        return message;
    }

    /** @return the HTTP status code ("400") or gRPC status ("StatusCode.NOT_FOUND"), or null (Triton's status()) */
    public String status()
    {
        return status;
    }

    /** @return details for debugging, or null (Triton's {@code debug_details()}) */
    public String debugDetails()
    {
        return debugDetails;
    }
}
