package io.ingot.core;

import io.ingot.tensor.DataType;
import io.ingot.api.ResponseAllocator;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ingot's default output memory: off-heap blocks in power-of-two size classes, recycled through lock-free pools so
 * that steady-state traffic allocates nothing. Blocks come from automatic arenas: a block dropped because its pool is
 * full, or never released by a caller that forgot to close a response, is freed by the garbage collector rather
 * than leaked.
 */
public final class PooledResponseAllocator implements ResponseAllocator
{
    private static final int MIN_CLASS = 6;        // 64 bytes
    private static final int MAX_CLASS = 26;       // 64 MiB; larger blocks are not pooled
    private static final int BLOCKS_PER_CLASS = 1024;
    private static final long ALIGNMENT = 64;

    @SuppressWarnings("unchecked")
    private final ManyToManyConcurrentArrayQueue<MemorySegment>[] pools =
        new ManyToManyConcurrentArrayQueue[MAX_CLASS + 1];

    /** Creates empty pools. */
    public PooledResponseAllocator()
    {
        for (int sizeClass = MIN_CLASS; sizeClass <= MAX_CLASS; sizeClass++)
        {
            pools[sizeClass] = new ManyToManyConcurrentArrayQueue<>(BLOCKS_PER_CLASS);
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
        return pooled != null ? pooled : Arena.ofAuto().allocate(1L << sizeClass, ALIGNMENT);
    }

    @Override
    public void release(final MemorySegment memory)
    {
        final long size = memory.byteSize();
        if (Long.bitCount(size) != 1)
        {
            return;
        }
        final int sizeClass = Long.numberOfTrailingZeros(size);
        if (sizeClass >= MIN_CLASS && sizeClass <= MAX_CLASS)
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
