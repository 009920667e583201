package io.ingot.instance;

import io.ingot.device.PinnedAllocator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One growable block of pinned staging memory, owned by one instance thread. Grows to the largest batch seen (at
 * least doubling, so steady state allocates nothing) and frees the previous block when it grows.
 */
final class StagingBuffer implements AutoCloseable
{
    private final PinnedAllocator allocator;
    private Arena arena;
    private MemorySegment memory = MemorySegment.NULL;

    StagingBuffer(final PinnedAllocator allocator)
    {
        this.allocator = allocator;
    }

    /**
     * @param byteSize bytes needed
     * @return a segment of exactly {@code byteSize} bytes (contents unspecified)
     */
    MemorySegment slice(final long byteSize)
    {
        if (memory.byteSize() < byteSize)
        {
            close();
            arena = Arena.ofShared();
            memory = allocator.allocate(Math.max(byteSize, Math.min(memory.byteSize() * 2, byteSize * 2)), arena);
        }
        return memory.asSlice(0, byteSize);
    }

    @Override
    public void close()
    {
        if (arena != null)
        {
            arena.close();
            arena = null;
            memory = MemorySegment.NULL;
        }
    }
}
