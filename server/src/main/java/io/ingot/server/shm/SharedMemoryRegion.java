package io.ingot.server.shm;

import io.ingot.libc.Posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One registered system shared-memory region: a mapping of part of a POSIX shared-memory object, shared by every
 * request that references the region by name.
 *
 * <p>The mapping lives in its own shared {@link Arena}. Requests {@link #tryAcquire() acquire} the region for as long
 * as they read or write it; {@link #retire() retiring} it (unregister) stops new acquisitions at once and unmaps it
 * when the last holder {@link #release() releases}, so that an in-flight request never touches unmapped memory.
 * The object's descriptor stays open while the region is mapped, so that each use can check the object's current
 * size ({@link #objectSize()}): a client that truncates its object after registering gets a 400, not a fault.
 */
public final class SharedMemoryRegion
{
    private static final long RETIRED = Long.MIN_VALUE;

    private final String name;
    private final String key;
    private final long offset;
    private final long byteSize;
    private final Arena arena;
    private final MemorySegment memory;
    private final int fd;
    /** Number of holders in the low bits; the sign bit is set once retired. */
    private final AtomicLong state = new AtomicLong();

    SharedMemoryRegion(final String name, final String key, final long offset, final long byteSize,
        final Arena arena, final MemorySegment memory, final int fd)
    {
        this.fd = fd;
        this.name = name;
        this.key = key;
        this.offset = offset;
        this.byteSize = byteSize;
        this.arena = arena;
        this.memory = memory;
    }

    /** @return the name the region was registered under. */
    public String name()
    {
        return name;
    }

    /** @return the shared-memory key as the client gave it (e.g. {@code /input_simple}). */
    public String key()
    {
        return key;
    }

    /** @return the offset of the region inside the shared-memory object. */
    public long offset()
    {
        return offset;
    }

    /** @return the region's size in bytes. */
    public long byteSize()
    {
        return byteSize;
    }

    /**
     * @return the shared-memory object's size now ({@code lseek(fd, 0, SEEK_END)}; no allocation), or -1 when it
     *         cannot be read
     */
    public long objectSize()
    {
        return Posix.sizeOf(fd);
    }

    /** @return whether the mapping is still alive (false once retired and released by every holder). */
    public boolean isMapped()
    {
        return memory.scope().isAlive();
    }

    /** @return true while no unregister has retired the region. */
    public boolean isRegistered()
    {
        return (state.get() & RETIRED) == 0;
    }

    /** @return the number of requests currently holding the region. */
    public long holders()
    {
        return state.get() & ~RETIRED;
    }

    /**
     * Takes a hold on the mapping.
     *
     * @return false when the region was retired (it must then be treated as unknown)
     */
    public boolean tryAcquire()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & RETIRED) != 0)
            {
                return false;
            }
            if (state.compareAndSet(current, current + 1))
            {
                return true;
            }
        }
    }

    /** Drops a hold taken by {@link #tryAcquire()}; the last holder of a retired region unmaps it. */
    public void release()
    {
        final long after = state.decrementAndGet();
        if (after == RETIRED)
        {
            unmap();
        }
    }

    /** Stops new holds; unmaps now if nobody holds the region, else when the last holder releases. Idempotent. */
    public void retire()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & RETIRED) != 0)
            {
                return;
            }
            if (state.compareAndSet(current, current | RETIRED))
            {
                if (current == 0)
                {
                    unmap();
                }
                return;
            }
        }
    }

    private void unmap()
    {
        arena.close();
        Posix.close(fd);
    }

    /**
     * A view of part of the region. The caller must hold the region and must have checked the bounds.
     *
     * @param sliceOffset offset inside the region
     * @param sliceSize   bytes
     * @return the view
     */
    public MemorySegment slice(final long sliceOffset, final long sliceSize)
    {
        return memory.asSlice(sliceOffset, sliceSize);
    }

    @Override
    public String toString()
    {
        return "SharedMemoryRegion{name='" + name + "', key='" + key + "', offset=" + offset + ", byteSize="
            + byteSize + '}';
    }
}
