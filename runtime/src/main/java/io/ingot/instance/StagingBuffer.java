package io.ingot.instance;

import io.ingot.device.PinnedAllocator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One growable block of pinned staging memory, owned by one instance thread. It grows to the largest batch seen, at
 * least doubling each time (so a sequence of growing batches reallocates only logarithmically often, and steady state
 * allocates nothing), and frees the previous block when it grows. The slice of the last size asked for is kept, so a
 * run of equal batch sizes allocates not even a segment object. Not thread-safe: its instance's thread only.
 */
final class StagingBuffer implements AutoCloseable
{
    private final PinnedAllocator allocator;
    private Arena arena;
    private MemorySegment memory = MemorySegment.NULL;
    private MemorySegment lastSlice = MemorySegment.NULL;
    private int allocations;

    StagingBuffer(final PinnedAllocator allocator)
    {
        this.allocator = allocator;
    }

    /**
     * @param byteSize bytes needed
     * @return a segment of exactly {@code byteSize} bytes (contents unspecified), valid until the next call
     */
    MemorySegment slice(final long byteSize)
    {
        if (lastSlice.byteSize() == byteSize && lastSlice != MemorySegment.NULL)
        {
            return lastSlice;
        }
        if (memory.byteSize() < byteSize)
        {
            // Read the old size before closing it: the new block is at least twice the old one.
            final long grown = Math.max(byteSize, memory.byteSize() * 2);
            close();
            arena = Arena.ofShared();
            memory = allocator.allocate(grown, arena);
            allocations++;
        }
        lastSlice = memory.asSlice(0, byteSize);
        return lastSlice;
    }

    /** @return how many blocks this buffer has allocated so far. */
    int allocations()
    {
        return allocations;
    }

    /** @return the size of the current block, 0 before the first {@link #slice}. */
    long capacity()
    {
        return memory.byteSize();
    }

    @Override
    public void close()
    {
        if (arena != null)
        {
            arena.close();
            arena = null;
            memory = MemorySegment.NULL;
            lastSlice = MemorySegment.NULL;
        }
    }
}
