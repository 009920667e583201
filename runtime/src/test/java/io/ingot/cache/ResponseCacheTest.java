package io.ingot.cache;

import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The local cache's byte bound and eviction order, and what the key depends on. */
class ResponseCacheTest
{
    private static CachedResponse entry(final int bytes)
    {
        return CachedResponse.of(List.of(new CachedResponse.Output("O", DataType.UINT8, new long[] {bytes},
            new byte[bytes])));
    }

    @Test
    void theLeastRecentlyUsedEntriesMakeRoomAndTheBoundHolds()
    {
        final long one = entry(1000).bytes();
        final ResponseCache cache = new ResponseCache(3 * one);
        cache.insert(1, entry(1000));
        cache.insert(2, entry(1000));
        cache.insert(3, entry(1000));
        assertEquals(3 * one, cache.usedBytes());
        cache.lookup(1);
        assertTrue(cache.insert(4, entry(1000)));
        assertNull(cache.lookup(2), "2 was the least recently used");
        assertEquals(1000, cache.lookup(1).outputs().get(0).data().length);
        assertEquals(1, cache.evictions());
        assertTrue(cache.usedBytes() <= cache.capacityBytes());
        assertFalse(cache.insert(5, entry(10_000)), "an entry larger than the cache is not kept");
        assertEquals(3, cache.size());
        assertThrows(IllegalArgumentException.class, () -> new ResponseCache(0));
    }

    @Test
    void theKeyFollowsModelVersionInputNamesBytesAndRequestedOutputsButNotShape()
    {
        final MemorySegment a = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        final MemorySegment b = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 10});
        final long base = new CacheKey().begin("m", 1).input("IN", a).outputs(1).value();
        assertEquals(base, new CacheKey().begin("m", 1).input("IN", a).outputs(1).value());
        assertNotEquals(base, new CacheKey().begin("m", 1).input("IN", b).outputs(1).value(), "a changed byte");
        assertNotEquals(base, new CacheKey().begin("m", 2).input("IN", a).outputs(1).value(), "another version");
        assertNotEquals(base, new CacheKey().begin("n", 1).input("IN", a).outputs(1).value(), "another model");
        assertNotEquals(base, new CacheKey().begin("m", 1).input("IN2", a).outputs(1).value(), "another input");
        assertNotEquals(base, new CacheKey().begin("m", 1).input("IN", a).outputs(3).value(), "other outputs");
        assertNotEquals(base, new CacheKey().begin("m", 1).input("IN", a.asSlice(0, 8)).outputs(1).value(),
            "a shorter input");
    }
}
