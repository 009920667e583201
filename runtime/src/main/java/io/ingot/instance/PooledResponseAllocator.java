package io.ingot.instance;

import io.ingot.tensor.DataType;
import io.ingot.api.ResponseAllocator;
import io.ingot.ring.BoundedMpmcQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.LongAdder;

/**
 * Ingot's default output memory: off-heap blocks in power-of-two size classes, recycled through lock-free pools so
 * that steady-state traffic allocates nothing. A block is handed out as a segment of exactly the size asked, and a
 * released segment goes back to its class's pool as it is: the next request of the same size gets that very
 * segment back, without even a new slice object. A pooled segment too small for a request of its class is dropped.
 * Blocks come from automatic arenas: a block dropped (its pool full, or too small, or never released by a caller that
 * forgot to close a response) is freed by the garbage collector rather than leaked. Thread-safe.
 *
 * <p>It also holds the {@linkplain SharedOutput shared outputs} of batches: for a batch of two or more requests that
 * all take their output memory from the core's default allocator, and that is this class, the instance allocates
 * each requested output once for the whole batch ({@link #share}), the engine writes it in place, and each response
 * gets a slice of its rows. A shared output comes back here when the last response holding a slice of it is closed
 * ({@link #recycle}), and is pooled, block and holder count together, in the same size classes: steady state
 * allocates nothing for it either. The core recognises this class as its own: no other {@link ResponseAllocator} has
 * its memory shared and sliced (an application's allocator gets one {@code allocate} per output of each response).
 */
public final class PooledResponseAllocator implements ResponseAllocator
{
    private static final int MIN_CLASS = 6;        // 64 bytes
    private static final int MAX_CLASS = 26;       // 64 MiB; larger blocks are not pooled
    private static final int BLOCKS_PER_CLASS = 1024;
    private static final long ALIGNMENT = 64;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final BoundedMpmcQueue<MemorySegment>[] pools =
        new BoundedMpmcQueue[MAX_CLASS + 1];
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final BoundedMpmcQueue<SharedOutput>[] sharedPools = new BoundedMpmcQueue[MAX_CLASS + 1];
    private final LongAdder sharedReturns = new LongAdder();

    /** Creates empty pools. */
    public PooledResponseAllocator()
    {
        for (int sizeClass = MIN_CLASS; sizeClass <= MAX_CLASS; sizeClass++)
        {
            pools[sizeClass] = new BoundedMpmcQueue<>(BLOCKS_PER_CLASS);
            sharedPools[sizeClass] = new BoundedMpmcQueue<>(BLOCKS_PER_CLASS);
        }
    }

    /**
     * A batch's output, to be shared by its responses: a pooled one of the size's class when there is one, else a
     * new one; the caller is its one holder. Called on instance threads.
     *
     * @param byteSize the output's size
     * @return a shared output whose block holds at least {@code byteSize} bytes
     */
    SharedOutput share(final long byteSize)
    {
        final int sizeClass = sizeClass(byteSize);
        if (sizeClass > MAX_CLASS)
        {
            return new SharedOutput(this, -1, newBlock(sizeClass, byteSize));
        }
        final SharedOutput pooled = sharedPools[sizeClass].poll();
        if (pooled != null)
        {
            return pooled;
        }
        return new SharedOutput(this, sizeClass, newBlock(sizeClass, byteSize));
    }

    /**
     * Takes back a shared output whose last holder released it (called once per use, by that holder).
     *
     * @param output the shared output, no longer held
     */
    void recycle(final SharedOutput output)
    {
        sharedReturns.increment();
        if (output.sizeClass() >= 0)
        {
            sharedPools[output.sizeClass()].offer(output);
        }
    }

    /**
     * @return how many times a batch's shared output came back after its last holder released it, since this
     *         allocator was made: once per batch output shared (for tests and diagnostics)
     */
    public long sharedReturns()
    {
        return sharedReturns.sum();
    }

    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        final int sizeClass = sizeClass(byteSize);
        if (sizeClass > MAX_CLASS)
        {
            return newBlock(sizeClass, byteSize);
        }
        final MemorySegment pooled = pools[sizeClass].poll();
        if (pooled != null && pooled.byteSize() == byteSize)
        {
            return pooled;
        }
        if (pooled != null && pooled.byteSize() > byteSize)
        {
            return pooled.asSlice(0, byteSize);
        }
        return newBlock(sizeClass, byteSize).asSlice(0, byteSize);
    }

    @Override
    public void release(final MemorySegment memory)
    {
        final int sizeClass = sizeClass(memory.byteSize());
        if (sizeClass <= MAX_CLASS)
        {
            pools[sizeClass].offer(memory);
        }
    }

    /**
     * A new block from an automatic arena: its whole size class, so that it can be pooled, or exactly
     * {@code byteSize} (at least one byte) above the largest class, which is never pooled.
     */
    private static MemorySegment newBlock(final int sizeClass, final long byteSize)
    {
        final long size = sizeClass > MAX_CLASS ? Math.max(byteSize, 1) : 1L << sizeClass;
        return Arena.ofAuto().allocate(size, ALIGNMENT);
    }

    private static int sizeClass(final long byteSize)
    {
        if (byteSize <= 1L << MIN_CLASS)
        {
            return MIN_CLASS;
        }
        return 64 - Long.numberOfLeadingZeros(byteSize - 1);
    }
}
