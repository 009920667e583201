package io.ingot.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Source of host memory that a device can copy from and to at full speed: page-locked ("pinned") memory from
 * {@code cudaHostAlloc} where a GPU is present, page-aligned off-heap memory otherwise.
 *
 * <p>Contract shared by every implementation:
 * <ul>
 *   <li>{@link #allocate(long, Arena)} returns a native segment of exactly {@code byteSize} bytes, aligned to at
 *       least {@link #alignment()}, filled with zeros;</li>
 *   <li>the memory is freed exactly once, when {@code arena} closes; the segment is unusable afterwards (its
 *       {@linkplain MemorySegment#scope() scope} is the arena's);</li>
 *   <li>a negative size is an {@link IllegalArgumentException} naming the value; use after {@link #close()} is an
 *       {@link IllegalStateException}, and so is allocating into a closed arena;</li>
 *   <li>closing twice is harmless, and closing never frees memory already handed out.</li>
 * </ul>
 * Implementations are thread-safe. {@link PinnedAllocators#automatic()} picks the implementation for this machine.
 */
public interface PinnedAllocator extends AutoCloseable
{
    /**
     * Allocates zeroed memory that lives until {@code arena} is closed. Not for per-request use: page-locked
     * memory is expensive to allocate, so callers allocate staging buffers once and reuse them.
     *
     * @param byteSize number of bytes, {@code >= 0}
     * @param arena    the owner of the memory; closing it frees the memory
     * @return a native segment of {@code byteSize} bytes, aligned to {@link #alignment()}
     */
    MemorySegment allocate(long byteSize, Arena arena);

    /** @return the guaranteed alignment of every segment this allocator returns, in bytes (a power of two). */
    long alignment();

    /** @return true when the memory is page-locked and registered with a device (DMA-capable without staging). */
    boolean isDevicePinned();

    /** @return a short name of the kind of memory, for logs and statistics: {@code "cuda-host"} or {@code "host"}. */
    String kind();

    /** Stops further allocations. Memory already handed out stays owned by its arenas. */
    @Override
    void close();
}
