package io.ingot.instance;

import io.ingot.api.ResponseAllocator;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One output of one batch, allocated once for the whole batch from {@link PooledResponseAllocator} and written by
 * the engine in place; each response of the batch gets a slice of it (its rows: a view, no copy). A holder count says
 * who still uses it: the instance holds it from the allocation until every response of the batch is written (or the
 * batch failed), and each response that received a slice holds it until it is closed (or failed). The holder that
 * drops the count to zero returns the block, with this object, to its allocator's pool: the block is never handed out
 * again while a response holds a slice of it.
 *
 * <p>It is the {@link ResponseAllocator} its slices are released to ({@link #release} drops one hold, whichever
 * slice it is given); it allocates nothing itself. Slices are kept per offset and length (hashed, up to
 * {@link #SLICE_CACHE}), so that a block reused for batches of the same shapes hands out the very segment objects it
 * handed out before: steady state allocates nothing.
 *
 * <p>Threads: {@link #open}, {@link #slice} and {@link #retain} run on the one instance thread that allocated it
 * (which holds it then); {@link #release} on any thread, concurrently (an atomic count). The count's release and
 * acquire order every response's reads of the block before its return to the pool and its next use.
 */
final class SharedOutput implements ResponseAllocator
{
    /** Slices kept per block, a power of two: the rows of a batch of up to 16 requests and 16 batch sizes. */
    static final int SLICE_CACHE = 64;
    private static final int SLICE_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(SLICE_CACHE);

    private final PooledResponseAllocator home;
    private final int sizeClass;
    private final MemorySegment block;
    private final AtomicInteger holders = new AtomicInteger();
    private final MemorySegment[] slices = new MemorySegment[SLICE_CACHE];

    /**
     * @param home      the allocator whose pool it returns to
     * @param sizeClass its size class there (a pool index), or -1 when it is not pooled
     * @param block     its memory, native, at least as large as any output it is opened for
     */
    SharedOutput(final PooledResponseAllocator home, final int sizeClass, final MemorySegment block)
    {
        this.home = home;
        this.sizeClass = sizeClass;
        this.block = block;
    }

    /**
     * Begins a use for one batch's output: the instance is its one holder.
     *
     * @param byteSize the output's size, at most the block's
     * @return the memory the engine writes, exactly {@code byteSize} bytes
     */
    MemorySegment open(final long byteSize)
    {
        holders.set(1);
        return slice(0, byteSize);
    }

    /**
     * @param offset where a response's rows begin
     * @param length their bytes
     * @return a view of them (a segment this block handed out before for the same range, when it has one)
     */
    MemorySegment slice(final long offset, final long length)
    {
        final int index = (int)(((offset * 31 + length) * 0x9E3779B97F4A7C15L) >>> SLICE_SHIFT);
        final MemorySegment cached = slices[index];
        if (cached != null && cached.byteSize() == length && cached.address() - block.address() == offset)
        {
            return cached;
        }
        final MemorySegment slice = block.asSlice(offset, length);
        slices[index] = slice;
        return slice;
    }

    /** One more holder: a response that is about to receive a slice. */
    void retain()
    {
        holders.incrementAndGet();
    }

    /** @return the current number of holders (for tests and diagnostics) */
    int holders()
    {
        return holders.get();
    }

    /** @return the size class it is pooled in, or -1 */
    int sizeClass()
    {
        return sizeClass;
    }

    /** @return its whole memory */
    MemorySegment block()
    {
        return block;
    }

    /** Not offered: memory is only ever sliced from a batch's shared output. */
    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        throw new UnsupportedOperationException("a batch's shared output is sliced, not allocated from");
    }

    /**
     * Drops one hold (a response closed or failed, or the instance is done with the batch); the last returns the
     * block to its pool.
     *
     * @param memory the slice the holder had (any: one hold is dropped)
     * @throws IllegalStateException when it is released more often than it was held (a bug of the core)
     */
    @Override
    public void release(final MemorySegment memory)
    {
        final int left = holders.decrementAndGet();
        if (left == 0)
        {
            home.recycle(this);
        }
        else if (left < 0)
        {
            throw new IllegalStateException("a batch's shared output was released once more than it was held");
        }
    }
}
