package io.ingot.tensorflow.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deallocator an engine gives {@code TF_NewTensor} for tensors over memory it does not own (a batch's staging or
 * a request's own memory): it frees nothing, it counts. TensorFlow calls it when the last reference to such a buffer
 * goes, which is after {@code TF_DeleteTensor} of the input and of every output that aliases it (an
 * {@code Identity} output shares its input's buffer), and may be on one of TensorFlow's threads.
 *
 * <p>The count is what makes lending memory safe: once a batch's tensors are deleted, {@link #outstanding()} must be
 * zero, or TensorFlow still holds memory the runtime is about to reuse. {@code TF_NewTensor} also calls the
 * deallocator at once when it copies instead of lending (data not aligned to {@code TF_TensorDefaultAlignment}),
 * which the count shows the same way. Thread-safe.
 */
public final class TensorReleases
{
    private static final MethodHandle RELEASED;

    static
    {
        try
        {
            RELEASED = MethodHandles.lookup().findVirtual(TensorReleases.class, "released",
                MethodType.methodType(void.class, MemorySegment.class, long.class, MemorySegment.class));
        }
        catch (final ReflectiveOperationException impossible)
        {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    private final AtomicLong lent = new AtomicLong();
    private final AtomicLong returned = new AtomicLong();
    private final MemorySegment stub;

    /**
     * @param arena owns the upcall stub: it must stay open while any tensor made with {@link #function()} lives
     */
    public TensorReleases(final Arena arena)
    {
        this.stub = TensorFlowC.deallocatorStub(RELEASED.bindTo(this), arena);
    }

    /** @return the {@code void (*)(void*, size_t, void*)} to pass to {@code TF_NewTensor} */
    public MemorySegment function()
    {
        return stub;
    }

    /**
     * Records that memory is lent; call before each {@code TF_NewTensor} that is given {@link #function()}, whether
     * it then succeeds or not (when it returns {@code NULL} it has called the deallocator already).
     */
    public void lent()
    {
        lent.incrementAndGet();
    }

    /** @return lent buffers TensorFlow has not released yet */
    public long outstanding()
    {
        return lent.get() - returned.get();
    }

    /** @return buffers released so far */
    public long released()
    {
        return returned.get();
    }

    @SuppressWarnings("unused") // called by TensorFlow through the upcall stub
    private void released(final MemorySegment data, final long length, final MemorySegment arg)
    {
        returned.incrementAndGet();
    }
}
