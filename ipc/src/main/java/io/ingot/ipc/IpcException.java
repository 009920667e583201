package io.ingot.ipc;

/**
 * Base of the errors of the shared-memory transport. Each subclass names one situation a caller may want to handle
 * differently; the message says which region, client slot, field or value was wrong and what to do.
 */
public class IpcException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong
     */
    public IpcException(final String message)
    {
        super(message);
    }

    /**
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public IpcException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
