package io.ingot.perf;

/**
 * What {@code ingot perf} sends requests to: a core in this process, or a server over HTTP, gRPC or shared-memory IPC.
 * A target is opened for one model; it reports the model's shape, makes clients, and reads the server's counters.
 */
public interface LoadTarget extends ModelSource, AutoCloseable
{
    /** @return where requests go, for reports ({@code "HTTP 127.0.0.1:8000"}). */
    String describe();

    /**
     * Fixes the tensors every request carries; called once, before any client is made.
     *
     * @param inputs the resolved request tensors
     */
    void prepare(RequestInputs inputs);

    /**
     * @return a client with one request in flight at a time, ready to send the prepared tensors
     * @throws PerfException when the target cannot take another client (every connection slot of the server taken)
     */
    LoadClient newClient();

    /**
     * @return how many clients this target can have open at once; {@link Integer#MAX_VALUE} when it sets no limit
     */
    default int maxClients()
    {
        return Integer.MAX_VALUE;
    }

    /** Releases the target (closes an in-process core it opened, an HTTP client, a channel or IPC connections). */
    @Override
    void close();
}
