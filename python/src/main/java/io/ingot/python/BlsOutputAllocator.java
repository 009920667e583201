package io.ingot.python;

import io.ingot.api.ResponseAllocator;
import io.ingot.ipc.SlabAllocator;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * Where the models a BLS request calls write their outputs: the BLS area of the calling instance's shared memory, so
 * that the stub reads them in place and no byte is copied between the called model and the Python code.
 *
 * <p>Thread-safe: the called models' instance threads allocate, the calling instance's thread releases; one lock,
 * held for the bitmap update only. When the area is full, {@link #allocate} returns {@code null} and the core fails
 * that BLS request with a message naming the output and the bytes it needed.
 */
final class BlsOutputAllocator implements ResponseAllocator
{
    private final MemorySegment memory;
    private final SlabAllocator area;

    /**
     * @param memory the region's mapping
     * @param area   the BLS area's allocator
     */
    BlsOutputAllocator(final MemorySegment memory, final SlabAllocator area)
    {
        this.memory = memory;
        this.area = area;
    }

    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        final long offset;
        synchronized (area)
        {
            offset = area.allocate(byteSize);
        }
        return offset == SlabAllocator.FAILED ? null : memory.asSlice(offset, byteSize);
    }

    @Override
    public void release(final MemorySegment segment)
    {
        final long offset = segment.address() - memory.address();
        synchronized (area)
        {
            area.free(offset, segment.byteSize());
        }
    }
}
