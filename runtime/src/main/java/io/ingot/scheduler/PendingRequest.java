package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.api.ResponseListener;

/**
 * The core's bookkeeping for one accepted request, from acceptance to its response. Pooled and reused, so that
 * steady-state traffic allocates nothing. Fields are written by the accepting thread before the request is published
 * into the ring, then owned by the batcher thread, then by one instance thread.
 */
public final class PendingRequest
{
    /** The caller's request. */
    public InferenceRequest request;
    /** Receives the response. */
    public ResponseListener listener;
    /** {@code max(1, batch size)} of the request. */
    public int batchSize;
    /** Priority level (0 when the model has no levels). */
    public long level;
    /** Queue timeout to apply, in nanoseconds; 0 means none. */
    public long timeoutNs;
    /** Absolute deadline ({@link System#nanoTime()} clock); 0 means none or already expired under DELAY. */
    public long deadlineNs;
    /** When the request was accepted (request start and queue start). */
    public long acceptedNs;
    /** When the request entered the batcher: the basis of the queue-delay timer. */
    public long batcherStartNs;
    /** Slot of this request in the ordered completion sequence, when {@code preserve_ordering} is set. */
    public long orderSequence = -1;
    /** For each configured input, the request's input index, or -1 when absent. */
    public int[] inputIndexByConfig = new int[4];
    /** Bit {@code i} set when configured input {@code i} is present (for optional-input batching checks). */
    public long presentInputs;
    /** Bit {@code i} set when configured output {@code i} is to be returned. */
    public long requestedOutputs;

    /** Clears references so that nothing outlives the request. */
    public void clear()
    {
        request = null;
        listener = null;
        orderSequence = -1;
        deadlineNs = 0;
        timeoutNs = 0;
        presentInputs = 0;
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
}
