package io.ingot.ipc;

/**
 * A file at an IPC path is not an Ingot region this code can use: wrong magic, another layout version, or sizes
 * that contradict each other or the file's length.
 */
public final class IpcRegionFormatException extends IpcException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong with which file
     */
    public IpcRegionFormatException(final String message)
    {
        super(message);
    }
}
