package io.ingot.instance;

import io.ingot.tensor.DataType;
import io.ingot.api.ResponseAllocator;
import io.ingot.ring.BoundedMpmcQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ingot's default output memory: off-heap blocks in power-of-two size classes, recycled through lock-free pools so
 * that steady-state traffic allocates nothing. A block is handed out as a segment of exactly the size asked, and a
 * released segment goes back to its class's pool as it is: the next request of the same size gets that very
 * segment back, without even a new slice object. A pooled segment too small for a request of its class is dropped.
 * Blocks come from automatic arenas: a block dropped (its pool full, or too small, or never released by a caller that
 * forgot to close a response) is freed by the garbage collector rather than leaked. Thread-safe.
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

    /** Creates empty pools. */
    public PooledResponseAllocator()
    {
        for (int sizeClass = MIN_CLASS; sizeClass <= MAX_CLASS; sizeClass++)
        {
            pools[sizeClass] = new BoundedMpmcQueue<>(BLOCKS_PER_CLASS);
        }
    }

    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        final int sizeClass = sizeClass(byteSize);
        if (sizeClass > MAX_CLASS)
        {
            return Arena.ofAuto().allocate(Math.max(byteSize, 1), ALIGNMENT);
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
        return Arena.ofAuto().allocate(1L << sizeClass, ALIGNMENT).asSlice(0, byteSize);
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

    private static int sizeClass(final long byteSize)
    {
        if (byteSize <= 1L << MIN_CLASS)
        {
            return MIN_CLASS;
        }
        return 64 - Long.numberOfLeadingZeros(byteSize - 1);
    }
}
