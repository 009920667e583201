package io.ingot.ipc;

/**
 * No server serves the name a client tried to connect to.
 */
public final class IpcServerNotFoundException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which name and path were looked for
     */
    public IpcServerNotFoundException(final String message)
    {
        super(message);
    }
}
