package io.ingot.ipc;

/**
 * A server was asked to serve a name that a live server already serves.
 */
public final class IpcNameInUseException extends IpcException
{
    private static final long serialVersionUID = 1L;

    private final long ownerPid;

    /**
     * @param message  which name, and who owns it
     * @param ownerPid the owning server's process id, as recorded in the region
     */
    public IpcNameInUseException(final String message, final long ownerPid)
    {
        super(message);
        this.ownerPid = ownerPid;
    }

    /** @return the process id of the server that owns the name. */
    public long ownerPid()
    {
        return ownerPid;
    }
}
