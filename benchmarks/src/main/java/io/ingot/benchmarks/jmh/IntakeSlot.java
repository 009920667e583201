package io.ingot.benchmarks.jmh;

import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseListener;
import io.ingot.scheduler.PendingRequest;

/**
 * One request a producer of the intake benchmark keeps in flight: free, then busy from submission until its batch was
 * taken by the consumer. Each producer cycles through a window of slots, so every variant runs with the same bounded
 * number of requests in flight and allocates no request objects.
 */
final class IntakeSlot implements ResponseListener
{
    /** Spins before yielding while waiting for the slot: short, because the consumer needs the cores too. */
    private static final int SPINS = 64;

    /** The scheduler's bookkeeping, for the variant that feeds Ingot's batcher directly. */
    final PendingRequest pending = new PendingRequest();
    /** The caller's request, for the variant that goes through the whole core. */
    final InferenceRequest request;
    private volatile boolean busy;

    /**
     * @param request the request this slot submits (through the core), or a shared, read-only one (batcher only)
     */
    IntakeSlot(final InferenceRequest request)
    {
        this.request = request;
    }

    /** Marks the slot in flight; called just before it is submitted. */
    void markBusy()
    {
        busy = true;
    }

    /** Frees the slot; called by the consumer once the slot's request left the queue in a batch. */
    void complete()
    {
        busy = false;
    }

    /** Waits until the slot is free. */
    void awaitFree()
    {
        int spins = 0;
        while (busy)
        {
            if (++spins < SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
    }

    @Override
    public void onResponse(final InferenceResponse response)
    {
        final boolean ok = response.isOk();
        final String failure = ok ? null : response.error().getMessage();
        response.close();
        if (!ok)
        {
            throw new IllegalStateException("intake request failed: " + failure);
        }
        complete();
    }
}
