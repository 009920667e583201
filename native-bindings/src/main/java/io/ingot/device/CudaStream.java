package io.ingot.device;

import io.ingot.cuda.CudaRuntime;
import io.ingot.cuda.HostCallbacks;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * A CUDA stream: an ordered queue of device work on the device that was current when it was created. Owns the
 * {@code cudaStream_t}; {@link #close()} destroys it (work already enqueued still runs). Thread-safe for enqueueing;
 * closing must not race with use.
 */
public final class CudaStream implements AutoCloseable
{
    private final MemorySegment handle;
    private final int flags;
    private final int priority;
    private final CloseGuard guard;

    private CudaStream(final MemorySegment handle, final int flags, final int priority)
    {
        this.handle = handle;
        this.flags = flags;
        this.priority = priority;
        this.guard = new CloseGuard(CloseGuard.describe("CUDA stream", handle.address()));
    }

    /**
     * Creates a non-blocking stream ({@code cudaStreamNonBlocking}: no implicit synchronisation with the legacy
     * default stream) with the default priority.
     *
     * @return the stream
     * @throws io.ingot.cuda.CudaException when CUDA cannot create it (e.g. no usable GPU)
     */
    public static CudaStream create()
    {
        return new CudaStream(CudaRuntime.cudaStreamCreateWithFlags(CudaRuntime.cudaStreamNonBlocking),
            CudaRuntime.cudaStreamNonBlocking, 0);
    }

    /**
     * Creates a stream with the given flags and priority.
     *
     * @param flags    {@link CudaRuntime#cudaStreamDefault} or {@link CudaRuntime#cudaStreamNonBlocking}
     * @param priority lower is more urgent; CUDA clamps it into {@link #priorityRange()}
     * @return the stream
     * @throws IllegalArgumentException when {@code flags} has bits other than {@code cudaStreamNonBlocking}
     */
    public static CudaStream create(final int flags, final int priority)
    {
        if ((flags & ~CudaRuntime.cudaStreamNonBlocking) != 0)
        {
            throw new IllegalArgumentException("stream flags must be cudaStreamDefault (0) or cudaStreamNonBlocking ("
                + CudaRuntime.cudaStreamNonBlocking + "), was " + flags);
        }
        return new CudaStream(CudaRuntime.cudaStreamCreateWithPriority(flags, priority), flags, priority);
    }

    /** @return the current device's stream priorities (lower number = higher priority) */
    public static CudaRuntime.StreamPriorityRange priorityRange()
    {
        return CudaRuntime.cudaDeviceGetStreamPriorityRange();
    }

    /**
     * @return the {@code cudaStream_t}, for passing to bindings (TensorRT {@code enqueueV3}, cuBLAS, ...)
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

    /** @return the priority it was created with (before CUDA's clamping) */
    public int priority()
    {
        return priority;
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed()
    {
        return guard.isClosed();
    }

    /** Blocks until all work enqueued so far is done. */
    public void synchronize()
    {
        CudaRuntime.cudaStreamSynchronize(handle());
    }

    /** @return true when all work enqueued so far is done; never blocks */
    public boolean isIdle()
    {
        return CudaRuntime.cudaStreamQuery(handle());
    }

    /**
     * Enqueues a host callback: the future completes when all work enqueued before it is done. It completes on
     * CUDA's callback thread; see {@link HostCallbacks} for what may run there.
     *
     * @return the future
     */
    public CompletableFuture<Void> whenDone()
    {
        return HostCallbacks.launch(handle());
    }

    /**
     * Starts capturing: work enqueued from now on is recorded, not run, until {@link #endCapture()}.
     *
     * @param mode a {@code cudaStreamCaptureMode*} constant, usually
     *             {@link CudaRuntime#cudaStreamCaptureModeThreadLocal}
     */
    public void beginCapture(final int mode)
    {
        CudaRuntime.cudaStreamBeginCapture(handle(), mode);
    }

    /** @return the graph captured since {@link #beginCapture(int)} */
    public CudaGraph endCapture()
    {
        return new CudaGraph(CudaRuntime.cudaStreamEndCapture(handle()));
    }

    /** Destroys the stream; a no-op when already closed. Work already enqueued still runs. */
    @Override
    public void close()
    {
        if (guard.tryClose())
        {
            CudaRuntime.cudaStreamDestroy(handle);
        }
    }

    @Override
    public String toString()
    {
        return guard.toString();
    }
}
