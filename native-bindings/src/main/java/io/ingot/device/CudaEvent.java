package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.MemorySegment;

/**
 * A CUDA event: a marker recorded into a stream that completes when the work before it is done; with timing
 * enabled, two completed events give the device time between them. Owns the {@code cudaEvent_t};
 * {@link #close()} destroys it.
 */
public final class CudaEvent implements AutoCloseable
{
    private final MemorySegment handle;
    private final int flags;
    private final CloseGuard guard;

    private CudaEvent(final MemorySegment handle, final int flags)
    {
        this.handle = handle;
        this.flags = flags;
        this.guard = new CloseGuard(CloseGuard.describe("CUDA event", handle.address()));
    }

    /** @return an event that records timing ({@code cudaEventDefault}) */
    public static CudaEvent create()
    {
        return create(CudaRuntime.cudaEventDefault);
    }

    /**
     * @param flags {@code cudaEvent*} flags ({@link CudaRuntime#cudaEventDisableTiming} for pure synchronisation)
     * @return the event
     */
    public static CudaEvent create(final int flags)
    {
        return new CudaEvent(CudaRuntime.cudaEventCreateWithFlags(flags), flags);
    }

    /**
     * @return the {@code cudaEvent_t}
     * @throws IllegalStateException when closed
     */
    public MemorySegment handle()
    {
        guard.ensureOpen();
        return handle;
    }

    /** @return the flags it was created with */
    public int flags()
    {
        return flags;
    }

    /**
     * Records the event into {@code stream}: it completes when the work enqueued there before it is done.
     *
     * @param stream the stream
     */
    public void record(final CudaStream stream)
    {
        CudaRuntime.cudaEventRecord(handle(), stream.handle());
    }

    /** Blocks until the event has completed. */
    public void synchronize()
    {
        CudaRuntime.cudaEventSynchronize(handle());
    }

    /** @return true when the event has completed (or was never recorded); never blocks */
    public boolean isComplete()
    {
        return CudaRuntime.cudaEventQuery(handle());
    }

    /**
     * Device time from {@code start} to this event. Both must have completed and record timing.
     *
     * @param start the earlier event
     * @return milliseconds (negative when this event completed first)
     */
    public float elapsedMillisSince(final CudaEvent start)
    {
        return CudaRuntime.cudaEventElapsedTime(start.handle(), handle());
    }

    /** Destroys the event; a no-op when already closed. */
    @Override
    public void close()
    {
        if (guard.tryClose())
        {
            CudaRuntime.cudaEventDestroy(handle);
        }
    }

    @Override
    public String toString()
    {
        return guard.toString();
    }
}
