package io.ingot.ipc;

/**
 * A wait for the server (registration, a response, room in a ring) took longer than the caller allowed, while the
 * server still looked alive.
 */
public final class IpcTimeoutException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was waited for, and how long
     */
    public IpcTimeoutException(final String message)
    {
        super(message);
    }
}
