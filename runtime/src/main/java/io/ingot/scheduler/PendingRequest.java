package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;

/**
 * The core's bookkeeping for one accepted request, from acceptance to its response. Attached to the caller's
 * {@link InferenceRequest} and reused with it, so that a caller who reuses its requests allocates nothing per
 * request.
 *
 * <p>Ownership moves with the request: the submitting thread fills the fields before it publishes the request into
 * the model's intake ring (a release), the thread holding the model's batching role owns it while it is queued, and
 * the instance that runs its batch owns it until the response is delivered. Each hand-over is ordered by the ring's
 * publication, the role's acquisition or the batch's hand-over, so the fields are plain.
 */
public final class PendingRequest
{
    /** No order sequence: the model does not preserve ordering, or the request never reached a batch. */
    public static final long NO_ORDER = -1;

    /** The caller's request. */
    public InferenceRequest request;
    /** Receives the response. */
    public ResponseListener listener;
    /** Receives every response with its final flag, instead of {@link #listener}, or {@code null}. */
    public ResponseStreamListener stream;
    /** {@code max(1, batch size)} of the request. */
    public int batchSize;
    /** Priority level (0 when the model has no levels). */
    public long level;
    /** Queue timeout to apply, in nanoseconds; 0 means none. */
    public long timeoutNs;
    /** Absolute deadline (the core's clock); 0 means none, or already expired under DELAY. */
    public long deadlineNs;
    /** When the request was accepted: request start, queue start, and the basis of the queue-delay timer. */
    public long acceptedNs;
    /** Slot of this request in the ordered completion sequence, when {@code preserve_ordering} is set. */
    public long orderSequence = NO_ORDER;
    /** For each configured input, the request's input index, or -1 when absent. */
    public int[] inputIndexByConfig = new int[4];
    /** Bit {@code i} set when configured input {@code i} is present (for optional-input batching checks). */
    public long presentInputs;
    /** The request's {@link ShapeKey}, set where the input bookkeeping is; {@link ShapeKey#NONE} when not packed. */
    public long shapeKey = ShapeKey.NONE;
    /** Bit {@code i} set when configured output {@code i} is to be returned. */
    public long requestedOutputs;
    /** The sequence's correlation ID when it is a number (unsigned); 0 for none or a string ID. */
    public long correlationId;
    /** The sequence's correlation ID when it is a string, else {@code null}. */
    public String correlationKey;
    /** The {@link SequenceControl#START} and {@link SequenceControl#END} bits the caller set. */
    public int sequenceFlags;
    /** Whether a successful response is to be kept in the response cache under {@link #cacheKey}. */
    public boolean cacheable;
    /** The request's response-cache key, when {@link #cacheable}. */
    public long cacheKey;
    /** Time the cache lookup that missed took, when {@link #cacheable} (counted with the insert as a miss). */
    public long cacheLookupNs;

    /** Clears the references and the per-flight state, so that nothing outlives the request's flight. */
    public void clear()
    {
        request = null;
        listener = null;
        stream = null;
        orderSequence = NO_ORDER;
        deadlineNs = 0;
        timeoutNs = 0;
        presentInputs = 0;
        shapeKey = ShapeKey.NONE;
        correlationId = 0;
        correlationKey = null;
        sequenceFlags = 0;
        cacheable = false;
    }

    /** @return the correlation ID as Triton prints it in messages: the number (unsigned) or the string */
    public String correlationText()
    {
        return correlationKey != null ? correlationKey : Long.toUnsignedString(correlationId);
    }

    /**
     * Makes room for the given number of configured inputs.
     *
     * @param configInputs number of inputs of the model
     */
    public void ensureInputCapacity(final int configInputs)
    {
        if (inputIndexByConfig.length < configInputs)
        {
            inputIndexByConfig = new int[configInputs];
        }
    }

    /** @return whether the caller asked to cancel the request */
    public boolean isCancelled()
    {
        return request.isCancelled();
    }
}
