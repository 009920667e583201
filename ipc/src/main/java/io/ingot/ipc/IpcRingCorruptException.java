package io.ingot.ipc;

/**
 * A ring's record header or position is impossible (a length outside the ring, a head beyond the tail): the ring
 * cannot be resynchronised. Thrown by {@link IpcRingReader} and {@link IpcRingWriter}; the server faults the
 * client that owns the ring.
 */
public final class IpcRingCorruptException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was read where
     */
    public IpcRingCorruptException(final String message)
    {
        super(message);
    }
}
