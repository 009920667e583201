package io.ingot.instance;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The holder count of a batch's shared output and its pooling in {@link PooledResponseAllocator}. */
class SharedOutputTest
{
    @Test
    void theLastHolderReturnsItToThePoolAndOnlyThenIsItHandedOutAgain()
    {
        final PooledResponseAllocator pool = new PooledResponseAllocator();
        final SharedOutput shared = pool.share(4000);
        final MemorySegment whole = shared.open(4000);
        assertEquals(4000, whole.byteSize());
        assertEquals(0, whole.address() % 64, "aligned like the pool's blocks");
        shared.retain();
        shared.retain();
        final MemorySegment rows = shared.slice(1000, 2000);
        assertEquals(whole.address() + 1000, rows.address());
        shared.release(rows);
        shared.release(null);
        assertNotSame(shared, pool.share(4000), "held by one response: not handed out again");
        assertEquals(0, pool.sharedReturns());
        shared.release(rows);
        assertEquals(1, pool.sharedReturns());
        assertEquals(0, shared.holders());
        final SharedOutput again = pool.share(3000);
        assertSame(shared, again, "pooled in its size class, block and count together");
        assertSame(rows, again.slice(1000, 2000), "its slices are kept: steady state allocates none");
        again.open(3000);
        assertEquals(1, again.holders());
    }

    @Test
    void releasingMoreOftenThanHeldIsABug()
    {
        final PooledResponseAllocator pool = new PooledResponseAllocator();
        final SharedOutput shared = pool.share(64);
        shared.open(64);
        shared.release(null);
        assertThrows(IllegalStateException.class, () -> shared.release(null));
        assertEquals(1, pool.sharedReturns());
    }
}
