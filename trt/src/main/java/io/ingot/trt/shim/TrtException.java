package io.ingot.trt.shim;

/**
 * A TensorRT shim call failed, or the shim could not be loaded. The message names the call and carries the shim's
 * own reason (TensorRT's logged error where there was one).
 */
public final class TrtException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and why
     */
    public TrtException(final String message)
    {
        super(message);
    }

    /**
     * @param message what failed
     * @param cause   the underlying failure
     */
    public TrtException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
