package io.ingot.ipc;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

class SlabAllocatorTest
{
    private static final long BASE = 1 << 20;

    @Test
    void allocationsAre64ByteAlignedDisjointAndInsideTheArea()
    {
        final SlabAllocator allocator = new SlabAllocator(BASE, 64 * 1024);
        final long a = allocator.allocate(1);
        final long b = allocator.allocate(100);
        final long c = allocator.allocate(0);
        for (final long offset : new long[] {a, b, c})
        {
            assertEquals(0, offset % 64);
            assertTrue(allocator.contains(offset, 64));
        }
        assertTrue(b >= a + 64 && c >= b + 128, "a=" + a + " b=" + b + " c=" + c);
        assertEquals(64 * 1024 - 4 * 64, allocator.freeBytes());
        assertEquals(3, allocator.allocations());
    }

    @Test
    void exhaustionFailsAndFreeingMakesRoomAgain()
    {
        final SlabAllocator allocator = new SlabAllocator(BASE, 4096);
        final long first = allocator.allocate(2048);
        final long second = allocator.allocate(2048);
        assertNotEquals(SlabAllocator.FAILED, second);
        assertEquals(SlabAllocator.FAILED, allocator.allocate(1));
        assertEquals(SlabAllocator.FAILED, allocator.allocate(8192), "larger than the whole area");
        assertTrue(allocator.free(first, 2048));
        assertEquals(first, allocator.allocate(2000));
    }

    @Test
    void freeAcceptsOnlyExactLiveAllocations()
    {
        final SlabAllocator allocator = new SlabAllocator(BASE, 8192);
        final long a = allocator.allocate(256);
        final long b = allocator.allocate(256);
        assertFalse(allocator.free(a + 64, 192), "the middle of an allocation");
        assertFalse(allocator.free(a, 128), "a shorter length frees part of it");
        assertFalse(allocator.free(a, 512), "a longer length reaches into the next allocation");
        assertFalse(allocator.free(BASE - 64, 64), "before the area");
        assertFalse(allocator.free(BASE + 8192, 64), "after the area");
        assertFalse(allocator.free(a + 1, 64), "unaligned");
        assertFalse(allocator.free(a, -1), "negative length");
        assertFalse(allocator.free(b + 512, 64), "never allocated");
        assertTrue(allocator.free(a, 250), "any length of the same block count");
        assertFalse(allocator.free(a, 256), "twice");
        assertTrue(allocator.free(b, 256));
        assertEquals(8192, allocator.freeBytes());
        assertEquals(0, allocator.allocations());
    }

    @Test
    void resetFreesEverything()
    {
        final SlabAllocator allocator = new SlabAllocator(BASE, 4096);
        allocator.allocate(4096);
        allocator.reset();
        assertEquals(4096, allocator.freeBytes());
        assertEquals(BASE, allocator.allocate(4096));
    }

    @Test
    void randomAllocationsAndFreesNeverOverlapAndAccountExactly()
    {
        final long length = 256 * 1024;
        final SlabAllocator allocator = new SlabAllocator(BASE, length);
        final TreeMap<Long, Long> live = new TreeMap<>();
        final Random random = new Random(3);
        long usedBlocks = 0;
        for (int op = 0; op < 50_000; op++)
        {
            if (live.isEmpty() || random.nextInt(3) > 0)
            {
                final long bytes = random.nextInt(8) == 0 ? random.nextInt(32 * 1024) : random.nextInt(512);
                final long offset = allocator.allocate(bytes);
                if (offset == SlabAllocator.FAILED)
                {
                    continue;
                }
                final long blocks = Math.max(1, (bytes + 63) / 64);
                final var below = live.floorEntry(offset);
                assertTrue(below == null || below.getKey() + below.getValue() * 64 <= offset, "overlaps below");
                final var above = live.ceilingEntry(offset);
                assertTrue(above == null || offset + blocks * 64 <= above.getKey(), "overlaps above");
                assertTrue(offset >= BASE && offset + blocks * 64 <= BASE + length);
                live.put(offset, blocks);
                usedBlocks += blocks;
            }
            else
            {
                final List<Long> keys = new ArrayList<>(live.keySet());
                final long offset = keys.get(random.nextInt(keys.size()));
                final long blocks = live.remove(offset);
                assertTrue(allocator.free(offset, blocks * 64));
                usedBlocks -= blocks;
            }
            assertEquals(length - usedBlocks * 64, allocator.freeBytes());
        }
        assertEquals(live.size(), allocator.allocations());
    }

    @Test
    void rejectsMisalignedAreas()
    {
        assertThrows(IllegalArgumentException.class, () -> new SlabAllocator(10, 4096));
        assertThrows(IllegalArgumentException.class, () -> new SlabAllocator(0, 100));
        assertThrows(IllegalArgumentException.class, () -> new SlabAllocator(0, 0));
    }
}
