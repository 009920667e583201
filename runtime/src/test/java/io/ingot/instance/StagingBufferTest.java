package io.ingot.instance;

import io.ingot.device.HostPinnedAllocator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StagingBufferTest
{
    @Test
    void aGrowingSequenceOfBatchSizesReallocatesLogarithmicallyOften()
    {
        try (StagingBuffer buffer = new StagingBuffer(new HostPinnedAllocator()))
        {
            final int rowBytes = 64;
            final int largest = 4096;
            for (int rows = 1; rows <= largest; rows++)
            {
                assertEquals((long)rows * rowBytes, buffer.slice((long)rows * rowBytes).byteSize());
            }
            // Doubling from 64 bytes to 4096 rows of 64 bytes: 1 + log2(4096) blocks; growing to exactly the size
            // asked every time (the old bug) would have been 4096.
            final int bound = 1 + Integer.numberOfTrailingZeros(largest);
            assertTrue(buffer.allocations() <= bound, buffer.allocations() + " allocations, expected at most " + bound);
            assertTrue(buffer.capacity() >= (long)largest * rowBytes);
        }
    }

    @Test
    void steadyStateReusesTheBlockAndTheSlice()
    {
        try (StagingBuffer buffer = new StagingBuffer(new HostPinnedAllocator()))
        {
            final MemorySegment first = buffer.slice(1024);
            buffer.slice(512);
            final int allocations = buffer.allocations();
            buffer.slice(1024);
            final MemorySegment again = buffer.slice(1024);
            assertEquals(allocations, buffer.allocations(), "no new block for sizes it already holds");
            assertSame(buffer.slice(1024), again, "the same size returns the same slice object");
            assertEquals(first.address(), again.address());
        }
    }

    @Test
    void batchSizesThatVaryAmongAFewValuesReuseOneSliceEach()
    {
        try (StagingBuffer buffer = new StagingBuffer(new HostPinnedAllocator()))
        {
            final int rowBytes = 4;
            final int maxBatch = 8;
            buffer.slice((long)maxBatch * rowBytes);
            final MemorySegment[] seen = new MemorySegment[maxBatch + 1];
            for (int rows = 1; rows <= maxBatch; rows++)
            {
                seen[rows] = buffer.slice((long)rows * rowBytes);
            }
            // Batches of 1..8 requests in any order, as a busy instance forms them: no new segment object.
            final int[] order = {3, 1, 8, 2, 2, 7, 5, 1, 4, 6, 8, 3};
            for (final int rows : order)
            {
                assertSame(seen[rows], buffer.slice((long)rows * rowBytes), "batch of " + rows);
            }
            assertEquals(1, buffer.allocations());
        }
    }
}
