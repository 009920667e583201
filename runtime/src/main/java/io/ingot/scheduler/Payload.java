package io.ingot.scheduler;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A batch under construction or execution: the requests the batcher put together for one execution.
 *
 * <p>A payload is handed to the {@link PayloadQueue} as soon as it is formed and stays appendable until an
 * instance takes it: the batcher may keep adding requests while it is {@link #READY}. The batcher holds it in
 * {@link #APPENDING} while it decides and appends; an instance claims it with {@link #claimForExecution()}, which
 * waits out an append in progress. Pooled: {@link #reset()} before reuse.
 */
public final class Payload
{
    /** Queued and appendable. */
    public static final int READY = 0;
    /** The batcher is appending. */
    public static final int APPENDING = 1;
    /** Taken by an instance: closed to appends. */
    public static final int EXECUTING = 2;

    private final AtomicInteger state = new AtomicInteger(READY);
    private PendingRequest[] requests;
    private int count;
    private int batchSize;
    private boolean saturated;

    /**
     * @param capacity the most requests it may hold (the model's maximum batch size)
     */
    public Payload(final int capacity)
    {
        requests = new PendingRequest[Math.max(1, capacity)];
    }

    /**
     * Drops the executed requests. The payload stays {@link #EXECUTING} — closed to appends — until the batcher
     * takes it from the pool again with {@link #reset()}, so a batcher still holding it as its current payload sees it
     * taken and never appends to a recycled object.
     */
    public void recycle()
    {
        for (int i = 0; i < count; i++)
        {
            requests[i] = null;
        }
        count = 0;
        batchSize = 0;
    }

    /** Makes a recycled payload appendable again (batcher only, when it starts a new batch with it). */
    public void reset()
    {
        recycle();
        saturated = false;
        state.set(READY);
    }

    /**
     * Batcher only: locks the payload for appending.
     *
     * @return false when an instance has already taken it
     */
    public boolean tryLockForAppend()
    {
        return state.compareAndSet(READY, APPENDING);
    }

    /** Batcher only: ends an append started with {@link #tryLockForAppend()}. */
    public void unlockAfterAppend()
    {
        state.compareAndSet(APPENDING, READY);
    }

    /** Instance only: closes the payload to appends, waiting out an append in progress. */
    public void claimForExecution()
    {
        while (!state.compareAndSet(READY, EXECUTING))
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Appends a request.
     *
     * @param request the request
     */
    public void add(final PendingRequest request)
    {
        if (count == requests.length)
        {
            requests = java.util.Arrays.copyOf(requests, count * 2);
        }
        requests[count++] = request;
        batchSize += request.batchSize;
    }

    /** @return number of requests. */
    public int count()
    {
        return count;
    }

    /**
     * @param index request index
     * @return the request
     */
    public PendingRequest get(final int index)
    {
        return requests[index];
    }

    /** @return the total batch size. */
    public int batchSize()
    {
        return batchSize;
    }

    /** @return true when the batcher will not append to it any more. */
    public boolean isSaturated()
    {
        return saturated;
    }

    /** Marks the payload closed to further appends by the batcher. */
    public void markSaturated()
    {
        saturated = true;
    }
}
