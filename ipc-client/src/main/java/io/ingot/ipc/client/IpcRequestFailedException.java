package io.ingot.ipc.client;

import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcStatus;

/**
 * A request the server answered with an error status, thrown by {@link IpcResponse#throwIfError()}.
 */
public final class IpcRequestFailedException extends IpcException
{
    private static final long serialVersionUID = 1L;

    private final int status;

    /**
     * @param status  the {@link IpcStatus} code
     * @param message the server's message
     */
    public IpcRequestFailedException(final int status, final String message)
    {
        super(IpcStatus.name(status) + ": " + message);
        this.status = status;
    }

    /** @return the {@link IpcStatus} code. */
    public int status()
    {
        return status;
    }
}
