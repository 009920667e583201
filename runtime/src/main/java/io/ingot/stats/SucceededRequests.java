package io.ingot.stats;

/**
 * The successful requests of one executed batch, summed, so that a {@link StatsCell} takes them in one update
 * ({@link StatsCell#requestsSucceeded}) instead of a dozen counter writes per request. The sums are exactly what
 * per-request updates would add: the request and queue durations, and their whole microseconds request by request.
 *
 * <p>Not thread-safe: one per instance, reused batch after batch by its writer.
 */
public final class SucceededRequests
{
    int requests;
    long inferences;
    long requestNs;
    long queueNs;
    long requestMicros;
    long queueMicros;

    /** Starts a batch: no request yet. */
    public void clear()
    {
        requests = 0;
        inferences = 0;
        requestNs = 0;
        queueNs = 0;
        requestMicros = 0;
        queueMicros = 0;
    }

    /**
     * One request of the batch succeeded.
     *
     * @param batchSize {@code max(1, batch size)} of the request
     * @param requestNs accept to response
     * @param queueNs   accept to compute start
     */
    public void add(final int batchSize, final long requestNs, final long queueNs)
    {
        requests++;
        inferences += batchSize;
        this.requestNs += requestNs;
        this.queueNs += queueNs;
        requestMicros += requestNs / 1000;
        queueMicros += queueNs / 1000;
    }
}
