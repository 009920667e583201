package io.ingot.device;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Page-aligned, zeroed off-heap memory: the {@link PinnedAllocator} used where no GPU is present. The memory is
 * ordinary (pageable) memory: {@link #isDevicePinned()} is false. Thread-safe.
 */
public final class HostPinnedAllocator implements PinnedAllocator
{
    /** Page size used when the platform's cannot be read. */
    private static final long FALLBACK_PAGE_SIZE = 4096;

    /**
     * The host's page size ({@code getpagesize()}; 4096 where it cannot be read). Every allocation is aligned to it.
     */
    public static final long PAGE_SIZE = readPageSize();

    private volatile boolean closed;

    /** Creates an open allocator. */
    public HostPinnedAllocator()
    {
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code byteSize} is negative
     * @throws IllegalStateException    when this allocator is closed, or {@code arena} is
     */
    @Override
    public MemorySegment allocate(final long byteSize, final Arena arena)
    {
        if (closed)
        {
            throw new IllegalStateException("host pinned allocator is closed; allocate from an open one");
        }
        if (byteSize < 0)
        {
            throw new IllegalArgumentException("allocation size must be >= 0, was " + byteSize);
        }
        // At least one byte, so that even an empty segment has a real, page-aligned address owned by the arena.
        final MemorySegment segment = arena.allocate(Math.max(byteSize, 1), PAGE_SIZE).asSlice(0, byteSize);
        // The JDK's arenas (Arena.ofConfined/ofShared/ofAuto/global) zero what they allocate; an Arena implemented
        // elsewhere promises nothing, so zero it here rather than hand out stale bytes.
        if (arena.getClass().getModule() != Arena.class.getModule())
        {
            segment.fill((byte) 0);
        }
        return segment;
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

    /** Stops further allocations; a no-op when already closed. Memory already handed out stays with its arenas. */
    @Override
    public void close()
    {
        closed = true;
    }

    @SuppressWarnings("restricted") // one call of libc's getpagesize
    private static long readPageSize()
    {
        try
        {
            final Linker linker = Linker.nativeLinker();
            final Optional<MemorySegment> symbol = linker.defaultLookup().find("getpagesize");
            if (symbol.isEmpty())
            {
                return FALLBACK_PAGE_SIZE;
            }
            final MethodHandle getpagesize = linker.downcallHandle(symbol.get(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
            final long size = (int) getpagesize.invokeExact();
            // Alignment must be a power of two; anything else means the call did not do what we think.
            return size > 0 && Long.bitCount(size) == 1 ? size : FALLBACK_PAGE_SIZE;
        }
        catch (final Throwable unreadable)
        {
            return FALLBACK_PAGE_SIZE;
        }
    }
}
