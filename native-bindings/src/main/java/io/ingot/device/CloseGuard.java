package io.ingot.device;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The open/closed state of one native resource: {@link #ensureOpen()} before each use, {@link #tryClose()} to win
 * the right to free it. Exactly one caller of {@code tryClose()} ever gets {@code true}, so a resource is freed at
 * most once however many threads close it.
 */
final class CloseGuard
{
    private final String what;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param what the resource, for the message of {@link IllegalStateException}, e.g. "CUDA stream 0x7f00"
     */
    CloseGuard(final String what)
    {
        this.what = what;
    }

    /** @throws IllegalStateException when the resource is closed */
    void ensureOpen()
    {
        if (closed.get())
        {
            throw new IllegalStateException(what + " is closed");
        }
    }

    /** @return true exactly once: for the caller that must free the resource */
    boolean tryClose()
    {
        return closed.compareAndSet(false, true);
    }

    /** @return whether the resource is closed */
    boolean isClosed()
    {
        return closed.get();
    }

    @Override
    public String toString()
    {
        return what + (closed.get() ? " (closed)" : "");
    }

    /**
     * @param kind   the kind of resource, e.g. "CUDA stream"
     * @param handle its native handle
     * @return a description like {@code "CUDA stream 0x7f12aa000000"}
     */
    static String describe(final String kind, final long handle)
    {
        return kind + " 0x" + Long.toHexString(handle);
    }
}
