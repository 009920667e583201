package io.ingot.api;

/**
 * An error with Triton's status category. Thrown synchronously by calls that fail before a request is accepted, and
 * carried by {@link InferenceResponse#error()} for requests that fail after acceptance. Its code and message never
 * change, so it may be read from any thread; an error taken from a response stays valid after the response is
 * closed.
 */
public class InferenceException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    /**
     * @param code    the status category
     * @param message what went wrong, naming the model, tensor or field and what was expected
     */
    public InferenceException(final ErrorCode code, final String message)
    {
        super(message);
        this.code = code;
    }

    /**
     * @param code    the status category
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public InferenceException(final ErrorCode code, final String message, final Throwable cause)
    {
        super(message, cause);
        this.code = code;
    }

    /** @return the status category. */
    public ErrorCode code()
    {
        return code;
    }
}
