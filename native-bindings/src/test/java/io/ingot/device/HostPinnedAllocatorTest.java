package io.ingot.device;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The allocator used where there is no GPU: page-aligned, zeroed, owned by the caller's arena. */
class HostPinnedAllocatorTest
{
    /** An arena implemented outside the JDK that hands out dirty memory, as any custom arena may. */
    private static final class DirtyArena implements Arena
    {
        private final Arena delegate = Arena.ofConfined();

        @Override
        public MemorySegment allocate(final long byteSize, final long byteAlignment)
        {
            return delegate.allocate(byteSize, byteAlignment).fill((byte) 0xAB);
        }

        @Override
        public MemorySegment.Scope scope()
        {
            return delegate.scope();
        }

        @Override
        public void close()
        {
            delegate.close();
        }
    }

    @Test
    void thePageSizeIsAPowerOfTwoOfAtLeast4KiB()
    {
        assertTrue(HostPinnedAllocator.PAGE_SIZE >= 4096);
        assertEquals(1, Long.bitCount(HostPinnedAllocator.PAGE_SIZE));
    }

    @Test
    void everyAllocationIsPageAlignedAndExactlyTheRequestedSize()
    {
        try (PinnedAllocator allocator = new HostPinnedAllocator(); Arena arena = Arena.ofConfined())
        {
            assertEquals(HostPinnedAllocator.PAGE_SIZE, allocator.alignment());
            for (final long size : List.of(0L, 1L, 7L, 4095L, 4096L, 4097L, 1L << 20, (1L << 20) + 3))
            {
                final MemorySegment segment = allocator.allocate(size, arena);
                assertEquals(size, segment.byteSize());
                assertEquals(0, segment.address() % HostPinnedAllocator.PAGE_SIZE,
                    "size " + size + " at 0x" + Long.toHexString(segment.address()));
                assertTrue(segment.isNative());
            }
        }
    }

    @Test
    void memoryIsZeroedEvenFromAnArenaThatHandsOutDirtyMemory()
    {
        try (PinnedAllocator allocator = new HostPinnedAllocator())
        {
            try (Arena arena = Arena.ofConfined())
            {
                assertAllZero(allocator.allocate(100_003, arena));
            }
            try (DirtyArena dirty = new DirtyArena())
            {
                assertEquals((byte) 0xAB, dirty.allocate(16, 1).get(ValueLayout.JAVA_BYTE, 0), "the arena is dirty");
                assertAllZero(allocator.allocate(100_003, dirty));
            }
        }
    }

    @Test
    void closingTheArenaFreesTheMemory()
    {
        final MemorySegment segment;
        try (PinnedAllocator allocator = new HostPinnedAllocator(); Arena arena = Arena.ofConfined())
        {
            segment = allocator.allocate(8192, arena);
            segment.set(ValueLayout.JAVA_LONG, 0, 42L);
            assertTrue(segment.scope().isAlive());
        }
        assertFalse(segment.scope().isAlive());
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void allocatingIntoAClosedArenaFails()
    {
        final Arena arena = Arena.ofConfined();
        arena.close();
        try (PinnedAllocator allocator = new HostPinnedAllocator())
        {
            assertThrows(IllegalStateException.class, () -> allocator.allocate(64, arena));
        }
    }

    @Test
    void useAfterCloseIsRejectedAndClosingTwiceIsHarmless()
    {
        final HostPinnedAllocator allocator = new HostPinnedAllocator();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment before = allocator.allocate(64, arena);
            allocator.close();
            allocator.close();
            final IllegalStateException error =
                assertThrows(IllegalStateException.class, () -> allocator.allocate(64, arena));
            assertTrue(error.getMessage().contains("closed"), error.getMessage());
            before.set(ValueLayout.JAVA_INT, 0, 7);
            assertEquals(7, before.get(ValueLayout.JAVA_INT, 0), "memory handed out before close stays usable");
        }
    }

    @Test
    void aNegativeSizeIsRejectedWithTheValue()
    {
        try (PinnedAllocator allocator = new HostPinnedAllocator(); Arena arena = Arena.ofConfined())
        {
            final IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> allocator.allocate(-17, arena));
            assertTrue(error.getMessage().contains("-17"), error.getMessage());
        }
    }

    @Test
    void describesItself()
    {
        try (PinnedAllocator allocator = new HostPinnedAllocator())
        {
            assertEquals("host", allocator.kind());
            assertFalse(allocator.isDevicePinned());
        }
    }

    private static void assertAllZero(final MemorySegment segment)
    {
        final long mismatch = MemorySegment.mismatch(segment, 0, segment.byteSize(),
            MemorySegment.ofArray(new byte[(int) segment.byteSize()]), 0, segment.byteSize());
        assertEquals(-1, mismatch, "non-zero byte at offset " + mismatch);
    }
}
