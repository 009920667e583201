package io.ingot.perf;

/**
 * One client of a {@link LoadTarget}: it holds one prepared request and has at most one in flight. Not thread-safe;
 * a closed-loop worker owns one, an open-loop scheduler lends them out.
 */
public interface LoadClient extends AutoCloseable
{
    /** Receives the outcome of an asynchronous {@link #send}. */
    @FunctionalInterface
    interface Sink
    {
        /**
         * Called exactly once per {@link #send}, on any thread.
         *
         * @param error {@code null} on success, else what went wrong
         */
        void completed(String error);
    }

    /**
     * Sends the request and waits for its response.
     *
     * @return {@code null} on success, else what went wrong
     * @throws InterruptedException when the waiting thread is interrupted
     */
    String call() throws InterruptedException;

    /**
     * Sends the request without waiting.
     *
     * @param sink receives the outcome
     */
    void send(Sink sink);

    /** Releases what the client holds. */
    @Override
    default void close()
    {
    }
}
