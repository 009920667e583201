package io.ingot.server;

/**
 * A started {@link Frontend}, as {@code ingot serve} stops it on SIGTERM or Ctrl-C: first {@link #stopAccepting()}
 * on every frontend, then the core closes (queued requests are answered UNAVAILABLE, running batches finish), then
 * {@link #awaitDrained(long)} on every frontend until each request it accepted was answered or the exit timeout
 * passed, then {@link #close()}.
 */
public interface RunningFrontend extends AutoCloseable
{
    /** Stops taking new connections and requests; those already taken are still answered. Idempotent. */
    default void stopAccepting()
    {
    }

    /**
     * Waits until every request this frontend accepted was answered.
     *
     * @param deadlineNanos the {@link System#nanoTime()} to give up at
     * @return true when none is left unanswered
     * @throws InterruptedException when interrupted
     */
    default boolean awaitDrained(final long deadlineNanos) throws InterruptedException
    {
        return true;
    }

    /** Stops the frontend and frees what it holds. */
    @Override
    void close();
}
