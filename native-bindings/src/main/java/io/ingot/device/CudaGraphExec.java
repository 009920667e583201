package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.MemorySegment;

/**
 * An executable CUDA graph ({@link CudaGraph#instantiate()}): launching it enqueues all of its recorded work with
 * one call. Owns the {@code cudaGraphExec_t}. A graph reads and writes the same addresses on every launch, so the
 * buffers it was captured with must outlive it.
 */
public final class CudaGraphExec implements AutoCloseable
{
    private final MemorySegment handle;
    private final CloseGuard guard;

    CudaGraphExec(final MemorySegment handle)
    {
        this.handle = handle;
        this.guard = new CloseGuard(CloseGuard.describe("CUDA graph exec", handle.address()));
    }

    /**
     * @return the {@code cudaGraphExec_t}
     * @throws IllegalStateException when closed
     */
    public MemorySegment handle()
    {
        guard.ensureOpen();
        return handle;
    }

    /**
     * Enqueues the whole graph on {@code stream}.
     *
     * @param stream the stream
     */
    public void launch(final CudaStream stream)
    {
        CudaRuntime.cudaGraphLaunch(handle(), stream.handle());
    }

    /** Destroys the executable graph; a no-op when already closed. */
    @Override
    public void close()
    {
        if (guard.tryClose())
        {
            CudaRuntime.cudaGraphExecDestroy(handle);
        }
    }

    @Override
    public String toString()
    {
        return guard.toString();
    }
}
