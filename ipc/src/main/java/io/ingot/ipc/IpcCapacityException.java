package io.ingot.ipc;

/**
 * A fixed resource of the region is exhausted: every client slot is taken, a slab has no room for a tensor, or a
 * ring stayed full for longer than the caller was willing to wait.
 */
public final class IpcCapacityException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which resource, how much was asked and how much there is
     */
    public IpcCapacityException(final String message)
    {
        super(message);
    }
}
