package io.ingot.ipc;

/**
 * The server a client is connected to closed, died, or was replaced by a new server (a restart). The connection
 * cannot be used any more; connect again.
 */
public final class IpcServerGoneException extends IpcException
{
    private static final long serialVersionUID = 1L;

    private final boolean restarted;

    /**
     * @param message   what happened to which server
     * @param restarted whether a new server (a higher generation) now serves the name
     */
    public IpcServerGoneException(final String message, final boolean restarted)
    {
        super(message);
        this.restarted = restarted;
    }

    /** @return true when another server now serves the name: reconnecting will work. */
    public boolean restarted()
    {
        return restarted;
    }
}
