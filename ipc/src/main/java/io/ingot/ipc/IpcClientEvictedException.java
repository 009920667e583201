package io.ingot.ipc;

/**
 * The server stopped serving this client's slot: it faulted it (corrupt ring, heartbeat timeout) or reclaimed it.
 */
public final class IpcClientEvictedException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which slot, and the server's reason
     */
    public IpcClientEvictedException(final String message)
    {
        super(message);
    }
}
