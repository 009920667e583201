package io.ingot.server.shm;

import io.ingot.libc.Posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One registered system shared-memory region: a mapping of part of a POSIX shared-memory object, shared by every
 * request that references the region by name.
 *
 * <p>The mapping lives in its own shared {@link Arena}. Requests {@link #tryAcquire() acquire} the region for as long
 * as they read or write it. {@link #unregister() Unregistering} it while requests hold it only marks it, as Triton's
 * shared-memory manager does ({@code awaiting_unregister_}): it stays registered, listed and usable until the last
 * holder {@link #release() releases} it, which unmaps it and tells the registry to drop it; unregistered while
 * nobody holds it, it is unmapped at once. An in-flight request never touches unmapped memory.
 * The object's descriptor stays open while the region is mapped, so that each use can check the object's current
 * size ({@link #objectSize()}): a client that truncates its object after registering gets a 400, not a fault.
 *
 * <p>Thread-safe: one atomic word holds the holders and the two flags.
 */
public final class SharedMemoryRegion
{
    /** Set once an unregister asked for the region to go. */
    private static final long AWAITING_UNREGISTER = Long.MIN_VALUE;
    /** Set once the mapping is released; no hold can be taken after it. */
    private static final long UNMAPPED = 1L << 62;
    private static final long HOLDERS = UNMAPPED - 1;

    private final String name;
    private final String key;
    private final long offset;
    private final long byteSize;
    private final Arena arena;
    private final MemorySegment memory;
    private final int fd;
    /** Number of holders in the low bits, and the two flags. */
    private final AtomicLong state = new AtomicLong();
    /** Told once, when a region awaiting its unregister is unmapped by its last holder. */
    private volatile Consumer<SharedMemoryRegion> onDeferredUnmap = region -> { };

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

    /** @return whether the mapping is still alive (false once unregistered and released by every holder). */
    public boolean isMapped()
    {
        return memory.scope().isAlive();
    }

    /** @return true while no unregister was asked for. */
    public boolean isRegistered()
    {
        return (state.get() & AWAITING_UNREGISTER) == 0;
    }

    /** @return the number of requests currently holding the region. */
    public long holders()
    {
        return state.get() & HOLDERS;
    }

    /**
     * @param listener told, on the releasing thread, when the last holder of a region awaiting its unregister unmaps
     *                 it (the registry drops the region then)
     */
    void onDeferredUnmap(final Consumer<SharedMemoryRegion> listener)
    {
        this.onDeferredUnmap = listener;
    }

    /**
     * Takes a hold on the mapping. A region awaiting its unregister can still be held, as in Triton (its name still
     * finds it); only an unmapped one cannot.
     *
     * @return false when the region is unmapped (it must then be treated as unknown)
     */
    public boolean tryAcquire()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & UNMAPPED) != 0)
            {
                return false;
            }
            if (state.compareAndSet(current, current + 1))
            {
                return true;
            }
        }
    }

    /** Drops a hold taken by {@link #tryAcquire()}; the last holder of a region awaiting its unregister unmaps it. */
    public void release()
    {
        final long after = state.decrementAndGet();
        if (after == AWAITING_UNREGISTER && state.compareAndSet(AWAITING_UNREGISTER, AWAITING_UNREGISTER | UNMAPPED))
        {
            unmap();
            onDeferredUnmap.accept(this);
        }
    }

    /**
     * Asks for the region to go: unmaps it now if nobody holds it, else marks it, and its last holder unmaps it.
     * Idempotent.
     *
     * @return true when it was unmapped now (the caller drops it), false when it is held or already asked to go
     */
    public boolean unregister()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & AWAITING_UNREGISTER) != 0)
            {
                return false;
            }
            if (current == 0)
            {
                if (state.compareAndSet(0, AWAITING_UNREGISTER | UNMAPPED))
                {
                    unmap();
                    return true;
                }
            }
            else if (state.compareAndSet(current, current | AWAITING_UNREGISTER))
            {
                return false;
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
