package io.ingot.trt.shim;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A TensorRT {@code IExecutionContext}: the per-instance state that runs an engine on a CUDA stream. Used by one
 * thread at a time (TensorRT's rule). The hot-path methods allocate nothing: dimensions pass through a scratch
 * segment owned by the context and tensor names are the engine's own C strings ({@link TrtCudaEngine#cName}).
 */
public final class TrtExecutionContext implements AutoCloseable
{
    private final TrtCudaEngine engine;
    private final MemorySegment handle;
    private final Arena arena;
    private final MemorySegment dims;
    private boolean closed;

    TrtExecutionContext(final TrtCudaEngine engine, final MemorySegment handle)
    {
        this.engine = engine;
        this.handle = handle;
        this.arena = Arena.ofShared();
        this.dims = arena.allocate(TrtShim.DIMS_BYTES, 8);
    }

    /** @return the engine this context runs */
    public TrtCudaEngine engine()
    {
        return engine;
    }

    /**
     * Selects the optimization profile; must precede {@link #setInputShape}. Asynchronous on {@code stream}: the
     * stream must be synchronized with any other stream that later uses this context.
     *
     * @param profile the profile index
     * @param stream  a {@code cudaStream_t} ({@link MemorySegment#NULL} for the test double)
     * @throws TrtException with TensorRT's reason on failure
     */
    public void setOptimizationProfile(final int profile, final MemorySegment stream)
    {
        if (TrtShim.contextSetProfileAsync(handle, profile, stream) != 1)
        {
            throw new TrtException("setOptimizationProfileAsync(" + profile + ") failed: " + TrtShim.lastError());
        }
    }

    /**
     * @param cName input name as an engine C string
     * @param shape the dimensions (the first {@code rank} are used)
     * @param rank  number of dimensions, at most {@value TrtShim#MAX_DIMS}
     * @return true when TensorRT accepted the shape; when false, {@link TrtShim#lastError()} says why
     */
    public boolean setInputShape(final MemorySegment cName, final long[] shape, final int rank)
    {
        for (int i = 0; i < rank; i++)
        {
            dims.setAtIndex(ValueLayout.JAVA_LONG, i, shape[i]);
        }
        return TrtShim.contextSetInputShape(handle, cName, rank, dims) == 1;
    }

    /**
     * @param cName tensor name as an engine C string
     * @param out   receives the resolved dimensions (at least {@value TrtShim#MAX_DIMS} long)
     * @return the rank
     * @throws TrtException on failure
     */
    public int tensorShape(final MemorySegment cName, final long[] out)
    {
        final int rank = TrtShim.contextTensorShape(handle, cName, dims);
        if (rank < 0)
        {
            throw new TrtException("getTensorShape(" + TrtShim.string(cName) + ") failed: " + TrtShim.lastError());
        }
        for (int i = 0; i < rank; i++)
        {
            out[i] = dims.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return rank;
    }

    /**
     * @param cName   tensor name as an engine C string
     * @param address the tensor's device memory
     * @throws TrtException with TensorRT's reason on failure
     */
    public void setTensorAddress(final MemorySegment cName, final MemorySegment address)
    {
        if (TrtShim.contextSetTensorAddress(handle, cName, address) != 1)
        {
            throw new TrtException("setTensorAddress(" + TrtShim.string(cName) + ") failed: " + TrtShim.lastError());
        }
    }

    /**
     * Queues inference on {@code stream}.
     *
     * @param stream a {@code cudaStream_t} ({@link MemorySegment#NULL} for the test double)
     * @throws TrtException with TensorRT's reason on failure
     */
    public void enqueue(final MemorySegment stream)
    {
        if (TrtShim.contextEnqueueV3(handle, stream) != 1)
        {
            throw new TrtException("enqueueV3 failed: " + TrtShim.lastError());
        }
    }

    /** Destroys the context. Idempotent. */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            TrtShim.contextDestroy(handle);
            arena.close();
        }
    }
}
