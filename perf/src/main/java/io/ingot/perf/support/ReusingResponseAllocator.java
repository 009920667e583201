package io.ingot.perf.support;

import io.ingot.tensor.DataType;
import io.ingot.api.ResponseAllocator;
import io.ingot.ring.BoundedMpmcQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Output memory from a lock-free pool of equal blocks, the allocator an application that cares about allocation would
 * write: once the pool holds as many blocks as there are responses open at a time, {@link #allocate} and
 * {@link #release} allocate nothing. Blocks come from one shared arena, freed by {@link #close()}.
 */
public final class ReusingResponseAllocator implements ResponseAllocator, AutoCloseable
{
    private final long blockBytes;
    private final BoundedMpmcQueue<MemorySegment> free;
    private final Arena arena = Arena.ofShared();

    /**
     * @param blockBytes the size of every block: the largest output this allocator serves
     * @param maxBlocks  the most blocks kept for reuse
     */
    public ReusingResponseAllocator(final long blockBytes, final int maxBlocks)
    {
        if (blockBytes < 1 || maxBlocks < 1)
        {
            throw new IllegalArgumentException("block size and count must be positive, were " + blockBytes + " and "
                + maxBlocks);
        }
        this.blockBytes = blockBytes;
        this.free = new BoundedMpmcQueue<>(maxBlocks);
    }

    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        if (byteSize > blockBytes)
        {
            throw new IllegalArgumentException("output '" + outputName + "' needs " + byteSize
                + " bytes; this allocator's blocks hold " + blockBytes);
        }
        final MemorySegment block = free.poll();
        if (block != null)
        {
            return block;
        }
        synchronized (arena)
        {
            return arena.allocate(blockBytes, 64);
        }
    }

    @Override
    public void release(final MemorySegment memory)
    {
        free.offer(memory);
    }

    /** Frees every block; no response served by this allocator may be open any more. */
    @Override
    public void close()
    {
        arena.close();
    }
}
