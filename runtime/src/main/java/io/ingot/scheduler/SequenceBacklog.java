package io.ingot.scheduler;

/**
 * A sequence waiting for a free slot: its requests in arrival order, its ID, and when the backlog expires (the
 * earliest {@code now + timeout} of its requests that set one). Owned by the holder of the batching role; not
 * thread-safe.
 */
final class SequenceBacklog
{
    /** The sequence's requests. */
    final RequestDeque queue = new RequestDeque();
    /** Its numeric ID (when {@link #key} is {@code null}). */
    final long id;
    /** Its string ID, or {@code null}. */
    final String key;
    /** Whether the ID still maps here (false once its END arrived). */
    boolean mapped = true;
    /** When the whole backlog is refused, or {@link BatchPolicy#NO_DEADLINE}. */
    long expiryNs = BatchPolicy.NO_DEADLINE;

    SequenceBacklog(final PendingRequest first)
    {
        this.id = first.correlationId;
        this.key = first.correlationKey;
    }

    /**
     * Appends a request; a request with a queue timeout brings the backlog's expiry forward.
     *
     * @param request the request
     */
    void add(final PendingRequest request)
    {
        queue.addLast(request);
        if (request.timeoutNs > 0)
        {
            expiryNs = Math.min(expiryNs, request.acceptedNs + request.timeoutNs);
        }
    }
}
