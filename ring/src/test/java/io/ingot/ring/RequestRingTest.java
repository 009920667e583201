package io.ingot.ring;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestRingTest
{
    @Test
    void aFullRingDrainsOneLapAndFreesItsSlotsForTheNextLap()
    {
        final RequestRing<Integer> ring = new RequestRing<>(4);
        for (int i = 0; i < 4; i++)
        {
            ring.publish(i);
        }
        assertTrue(ring.isHalfFull());
        final List<Integer> seen = new ArrayList<>();
        assertEquals(4, ring.drain(seen::add), "one lap, each item once");
        assertEquals(List.of(0, 1, 2, 3), seen);
        assertFalse(ring.isHalfFull());
        for (int i = 4; i < 8; i++)
        {
            assertTrue(ring.isWritable(ring.claim()), "the drained lap's slots are free again");
        }
    }

    @Test
    void aSinkThatThrowsConsumesTheItemItThrewOnAndLeavesTheRestForTheNextDrain()
    {
        final RequestRing<Integer> ring = new RequestRing<>(8);
        for (int i = 0; i < 5; i++)
        {
            ring.publish(i);
        }
        final List<Integer> seen = new ArrayList<>();
        assertThrows(IllegalStateException.class, () -> ring.drain(item ->
        {
            seen.add(item);
            if (item == 1)
            {
                throw new IllegalStateException("sink failed");
            }
        }));
        assertEquals(3, ring.drain(seen::add));
        assertEquals(List.of(0, 1, 2, 3, 4), seen, "nothing handed over twice, nothing lost");
        assertTrue(ring.isEmpty());
    }

    @Test
    void drainsInPublicationOrder()
    {
        final RequestRing<Integer> ring = new RequestRing<>(8);
        for (int i = 0; i < 5; i++)
        {
            ring.publish(i);
        }
        final List<Integer> seen = new ArrayList<>();
        assertEquals(5, ring.drain(seen::add));
        assertEquals(List.of(0, 1, 2, 3, 4), seen);
        assertTrue(ring.isEmpty());
        assertEquals(0, ring.drain(seen::add));
    }

    @Test
    void manyProducersLoseNothingAndWrapAroundAFullRing() throws Exception
    {
        final RequestRing<Long> ring = new RequestRing<>(16);
        final int producers = 4;
        final int perProducer = 20_000;
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final long base = (long)p << 32;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (int i = 0; i < perProducer; i++)
                {
                    ring.publish(base | i);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        final int[] next = new int[producers];
        long total = 0;
        while (total < (long)producers * perProducer)
        {
            total += ring.drain(value ->
            {
                final int producer = (int)(value >>> 32);
                final int index = (int)(long)value;
                // Per-producer order is preserved.
                assertEquals(next[producer], index);
                next[producer]++;
            });
            Thread.onSpinWait();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        for (int p = 0; p < producers; p++)
        {
            assertEquals(perProducer, next[p]);
        }
    }

    @Test
    void aClaimThatRacedPastAFullRingWaitsForItsSlotAndATombstoneIsSkipped()
    {
        final RequestRing<Integer> ring = new RequestRing<>(2);
        final long first = ring.tryClaim();
        final long second = ring.tryClaim();
        assertTrue(ring.isWritable(first) && ring.isWritable(second));
        assertEquals(RequestRing.FULL, ring.tryClaim(), "a full ring is a status");
        ring.publish(first, 1);
        ring.publish(second, null);
        // What a producer gets when its fetch-and-add lands past a full ring: the slot of the first lap's item.
        final long lapped = second + 1;
        assertFalse(ring.isWritable(lapped));
        assertTrue(ring.hasPublished());
        final List<Integer> seen = new ArrayList<>();
        assertEquals(1, ring.drain(seen::add), "the tombstone is not handed over");
        assertEquals(List.of(1), seen);
        assertTrue(ring.isWritable(lapped));
        assertFalse(ring.hasPublished());
        assertEquals(second, ring.drained());
        assertEquals(second, ring.claimed());
    }

    @Test
    void aClaimNotYetPublishedKeepsTheRingNonEmptyButHasNothingToDrain()
    {
        final RequestRing<Integer> ring = new RequestRing<>(4);
        final long claimed = ring.tryClaim();
        assertFalse(ring.isEmpty());
        assertFalse(ring.hasPublished());
        assertEquals(1, ring.occupancy());
        assertEquals(0, ring.drain(item -> { }));
        ring.publish(claimed, 7);
        assertTrue(ring.hasPublished());
        assertEquals(1, ring.drain(item -> assertEquals(7, item)));
        assertTrue(ring.isEmpty());
    }

    @Test
    void rejectsSizesThatAreNotPowersOfTwo()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new RequestRing<>(12));
        assertTrue(ex.getMessage().contains("12"));
    }
}
