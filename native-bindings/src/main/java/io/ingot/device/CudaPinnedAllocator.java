package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Page-locked host memory from {@code cudaHostAlloc}: the device copies from and to it by DMA, so asynchronous
 * copies are truly asynchronous. Each allocation is zeroed, page-aligned, and freed with {@code cudaFreeHost} when
 * its arena closes (a failure to free surfaces as a {@link io.ingot.cuda.CudaException} from
 * {@link Arena#close()}). Thread-safe.
 *
 * <p>Page-locked memory is a scarce system resource: allocate staging buffers once and reuse them.
 */
public final class CudaPinnedAllocator implements PinnedAllocator
{
    private static final int VALID_FLAGS = CudaRuntime.cudaHostAllocPortable | CudaRuntime.cudaHostAllocMapped
        | CudaRuntime.cudaHostAllocWriteCombined;

    private final int flags;
    private volatile boolean closed;

    /** An allocator whose memory is pinned for every CUDA context ({@code cudaHostAllocPortable}). */
    public CudaPinnedAllocator()
    {
        this(CudaRuntime.cudaHostAllocPortable);
    }

    /**
     * @param flags {@code cudaHostAlloc*} flags
     * @throws IllegalArgumentException when {@code flags} has unknown bits
     */
    public CudaPinnedAllocator(final int flags)
    {
        if ((flags & ~VALID_FLAGS) != 0)
        {
            throw new IllegalArgumentException("cudaHostAlloc flags must combine cudaHostAllocPortable (1), "
                + "cudaHostAllocMapped (2) and cudaHostAllocWriteCombined (4), was " + flags);
        }
        this.flags = flags;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException    when {@code byteSize} is negative
     * @throws IllegalStateException       when this allocator is closed, or {@code arena} is
     * @throws io.ingot.cuda.CudaException when CUDA cannot allocate (e.g. no usable GPU, out of pinnable memory)
     */
    @Override
    @SuppressWarnings("restricted") // gives cudaHostAlloc's memory its size and owner
    public MemorySegment allocate(final long byteSize, final Arena arena)
    {
        if (closed)
        {
            throw new IllegalStateException("CUDA pinned allocator is closed; allocate from an open one");
        }
        if (byteSize < 0)
        {
            throw new IllegalArgumentException("allocation size must be >= 0, was " + byteSize);
        }
        // cudaHostAlloc sub-allocates small requests at 512-byte alignment (seen on an H200 with driver 580), not at
        // a page: ask for a page more and start the segment at the first page boundary. At least one byte, so that
        // every segment has a real address for cudaFreeHost.
        final long page = HostPinnedAllocator.PAGE_SIZE;
        final MemorySegment raw = CudaRuntime.cudaHostAlloc(Math.max(byteSize, 1) + page - 1, flags);
        final MemorySegment segment;
        try
        {
            final long aligned = (raw.address() + page - 1) & -page;
            segment = MemorySegment.ofAddress(aligned).reinterpret(byteSize, arena, ignored -> free(raw));
        }
        catch (final RuntimeException | Error failure)
        {
            // The arena never took ownership (closed, wrong thread): free now or the memory leaks.
            CudaRuntime.cudaFreeHost(raw);
            throw failure;
        }
        segment.fill((byte) 0);
        return segment;
    }

    /** Frees what cudaHostAlloc returned, which can start before the aligned segment handed out. */
    private static void free(final MemorySegment allocated)
    {
        CudaRuntime.cudaFreeHost(allocated);
    }

    @Override
    public long alignment()
    {
        return HostPinnedAllocator.PAGE_SIZE;
    }

    @Override
    public boolean isDevicePinned()
    {
        return true;
    }

    @Override
    public String kind()
    {
        return "cuda-host";
    }

    /** @return the {@code cudaHostAlloc} flags used */
    public int flags()
    {
        return flags;
    }

    /** Stops further allocations; a no-op when already closed. Memory already handed out stays with its arenas. */
    @Override
    public void close()
    {
        closed = true;
    }
}
