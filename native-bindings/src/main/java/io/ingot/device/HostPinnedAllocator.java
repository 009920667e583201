package io.ingot.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Page-aligned off-heap memory: the {@link PinnedAllocator} used where no GPU is present. */
public final class HostPinnedAllocator implements PinnedAllocator
{
    /** Page size assumed for alignment. */
    public static final long PAGE_SIZE = 4096;

    private volatile boolean closed;

    @Override
    public MemorySegment allocate(final long byteSize, final Arena arena)
    {
        if (closed)
        {
            throw new IllegalStateException("host pinned allocator is closed");
        }
        if (byteSize < 0)
        {
            throw new IllegalArgumentException("allocation size must be >= 0, was " + byteSize);
        }
        final MemorySegment segment = arena.allocate(Math.max(byteSize, 1), PAGE_SIZE);
        return segment.asSlice(0, byteSize);
    }

    @Override
    public long alignment()
    {
        return PAGE_SIZE;
    }

    @Override
    public boolean isDevicePinned()
    {
        return false;
    }

    @Override
    public String kind()
    {
        return "host";
    }

    @Override
    public void close()
    {
        closed = true;
    }
}
