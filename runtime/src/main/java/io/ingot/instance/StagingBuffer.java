package io.ingot.instance;

import io.ingot.device.PinnedAllocator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One growable block of pinned staging memory, owned by one instance thread. It grows to the largest batch seen, at
 * least doubling each time (so a sequence of growing batches reallocates only logarithmically often, and steady state
 * allocates nothing), and frees the previous block when it grows. Slices are kept per size (up to
 * {@link #SLICE_CACHE} sizes, hashed), so batches whose sizes vary among a few values — one to {@code max_batch_size}
 * requests of one shape — allocate not even a segment object once each size was seen. Not thread-safe: its
 * instance's thread only.
 */
final class StagingBuffer implements AutoCloseable
{
    private final PinnedAllocator allocator;
    private Arena arena;
    /** Slices kept, a power of two: batch sizes of up to 32 distinct byte sizes mostly hit. */
    static final int SLICE_CACHE = 32;
    private static final int SLICE_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(SLICE_CACHE);

    private final MemorySegment[] slices = new MemorySegment[SLICE_CACHE];
    private MemorySegment memory = MemorySegment.NULL;
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
        // Fibonacci hashing: sizes that are multiples of one row size spread over the cache.
        final int index = (int)((byteSize * 0x9E3779B97F4A7C15L) >>> SLICE_SHIFT);
        final MemorySegment cached = slices[index];
        if (cached != null && cached.byteSize() == byteSize)
        {
            return cached;
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
        final MemorySegment slice = memory.asSlice(0, byteSize);
        slices[index] = slice;
        return slice;
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
            Arrays.fill(slices, null);
        }
    }
}
