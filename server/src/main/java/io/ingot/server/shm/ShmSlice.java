package io.ingot.server.shm;

import java.lang.foreign.MemorySegment;

/**
 * A tensor's bytes inside a registered region, held for one request. {@link #release()} must be called once the
 * request's response was delivered.
 *
 * @param region     the region, held by this slice
 * @param offset     offset of the tensor inside the region
 * @param byteSize   bytes the request named
 * @param memory     the tensor's memory, valid until {@link #release()}
 */
public record ShmSlice(SharedMemoryRegion region, long offset, long byteSize, MemorySegment memory)
{
    /** Drops this slice's hold on its region. */
    public void release()
    {
        region.release();
    }

    /**
     * Whether two slices share bytes of the same shared-memory object (possibly through two registrations of the
     * same key).
     *
     * @param other another slice
     * @return true when their byte ranges intersect
     */
    public boolean overlaps(final ShmSlice other)
    {
        if (!region.key().equals(other.region.key()))
        {
            return false;
        }
        final long start = region.offset() + offset;
        final long otherStart = other.region.offset() + other.offset;
        return start < otherStart + other.byteSize && otherStart < start + byteSize;
    }
}
