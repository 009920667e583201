package io.ingot.python;

/**
 * A stub that cannot serve any longer: it died, stopped answering its heartbeat, overran a timeout, broke the
 * protocol, or could not be started. The instance fails the batch it was running with this message and starts a
 * new stub. Every message names the model and the instance.
 */
final class PythonStubException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened, naming the model
     */
    PythonStubException(final String message)
    {
        super(message);
    }

    /**
     * @param message what happened, naming the model
     * @param cause   the underlying failure
     */
    PythonStubException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
