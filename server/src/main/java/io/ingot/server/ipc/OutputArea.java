package io.ingot.server.ipc;

import io.ingot.ipc.SlabAllocator;

/**
 * The server's allocator over one client's output area (docs/ipc.md, "Slabs"): the core's threads allocate outputs in
 * it ({@link RequestContext}), the IPC thread frees what the client releases and resets it when the slot changes
 * hands. Thread-safe: every operation holds this object's lock, which nothing else takes.
 */
final class OutputArea
{
    private final SlabAllocator allocator;
    private final long start;
    private final long end;

    /**
     * @param start  file offset of the area
     * @param length its bytes
     */
    OutputArea(final long start, final long length)
    {
        this.allocator = new SlabAllocator(start, length);
        this.start = start;
        this.end = start + length;
    }

    /**
     * @param bytes bytes to allocate
     * @return the file offset of the space, or {@link SlabAllocator#FAILED}
     */
    synchronized long allocate(final long bytes)
    {
        return allocator.allocate(bytes);
    }

    /**
     * @param offset file offset of an allocation
     * @param length its bytes
     * @return whether it was an allocation of this area, now freed
     */
    synchronized boolean free(final long offset, final long length)
    {
        return allocator.free(offset, length);
    }

    /** Frees everything: the slot changes hands. */
    synchronized void reset()
    {
        allocator.reset();
    }

    /** @return bytes free now (possibly fragmented) */
    synchronized long freeBytes()
    {
        return allocator.freeBytes();
    }

    /** @return bytes of the area */
    long capacity()
    {
        return allocator.capacity();
    }

    /**
     * @param offset a file offset
     * @param length bytes from there
     * @return whether those bytes lie inside the area
     */
    boolean contains(final long offset, final long length)
    {
        return offset >= start && offset <= end && length <= end - offset;
    }
}
