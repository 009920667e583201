package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.MemorySegment;

/**
 * A CUDA graph captured from a stream ({@link CudaStream#endCapture()}): a recorded sequence of device work that
 * can be instantiated once and launched many times. Owns the {@code cudaGraph_t}; the executable graphs made from
 * it stay valid after it is closed.
 */
public final class CudaGraph implements AutoCloseable
{
    private final MemorySegment handle;
    private final CloseGuard guard;

    CudaGraph(final MemorySegment handle)
    {
        this.handle = handle;
        this.guard = new CloseGuard(CloseGuard.describe("CUDA graph", handle.address()));
    }

    /**
     * @return the {@code cudaGraph_t}
     * @throws IllegalStateException when closed
     */
    public MemorySegment handle()
    {
        guard.ensureOpen();
        return handle;
    }

    /** @return an executable graph made from this one, with no instantiation flags */
    public CudaGraphExec instantiate()
    {
        return instantiate(0L);
    }

    /**
     * @param flags {@code cudaGraphInstantiateFlag*} flags
     * @return an executable graph made from this one
     */
    public CudaGraphExec instantiate(final long flags)
    {
        return new CudaGraphExec(CudaRuntime.cudaGraphInstantiate(handle(), flags));
    }

    /** Destroys the graph; a no-op when already closed. */
    @Override
    public void close()
    {
        if (guard.tryClose())
        {
            CudaRuntime.cudaGraphDestroy(handle);
        }
    }

    @Override
    public String toString()
    {
        return guard.toString();
    }
}
