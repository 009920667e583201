package io.ingot.ring;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BoundedMpmcQueueTest
{
    @Test
    void elementsLeaveInTheOrderTheyCameAcrossManyLaps()
    {
        final BoundedMpmcQueue<Integer> queue = new BoundedMpmcQueue<>(4);
        int next = 0;
        int expected = 0;
        for (int lap = 0; lap < 100; lap++)
        {
            while (queue.offer(next))
            {
                next++;
            }
            assertEquals(4, queue.size());
            for (int i = 0; i < 3; i++)
            {
                assertEquals(expected++, queue.poll());
            }
        }
        while (queue.size() > 0)
        {
            assertEquals(expected++, queue.poll());
        }
        assertEquals(next, expected);
        assertNull(queue.poll());
    }

    @Test
    void aFullQueueRefusesAndAnEmptyOneAnswersNull()
    {
        final BoundedMpmcQueue<String> queue = new BoundedMpmcQueue<>(2);
        assertNull(queue.poll());
        assertTrue(queue.offer("a"));
        assertTrue(queue.offer("b"));
        assertFalse(queue.offer("c"), "the third element of a queue of two");
        assertEquals("a", queue.poll());
        assertTrue(queue.offer("c"));
        assertEquals("b", queue.poll());
        assertEquals("c", queue.poll());
        assertNull(queue.poll());
        assertEquals(0, queue.size());
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo()
    {
        assertEquals(2, new BoundedMpmcQueue<>(1).capacity());
        assertEquals(8, new BoundedMpmcQueue<>(5).capacity());
        assertEquals(8192, new BoundedMpmcQueue<>(8192).capacity());
        assertEquals(1024, new BoundedMpmcQueue<>(1000).capacity());
        assertThrows(IllegalArgumentException.class, () -> new BoundedMpmcQueue<>(0));
        assertThrows(NullPointerException.class, () -> new BoundedMpmcQueue<String>(2).offer(null));
    }

    /** Four threads recycle a pool of tokens through a queue smaller than the traffic: none lost, none twice. */
    @Test
    void concurrentProducersAndConsumersLoseAndDuplicateNothing() throws Exception
    {
        final int tokens = 64;
        final int threads = 4;
        final long rounds = 200_000;
        final BoundedMpmcQueue<Integer> queue = new BoundedMpmcQueue<>(tokens);
        for (int i = 0; i < tokens; i++)
        {
            assertTrue(queue.offer(i));
        }
        final AtomicIntegerArray held = new AtomicIntegerArray(tokens);
        final AtomicLong violations = new AtomicLong();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final Thread worker = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (long r = 0; r < rounds; r++)
                {
                    final Integer token = queue.poll();
                    if (token == null)
                    {
                        Thread.onSpinWait();
                        continue;
                    }
                    if (held.getAndIncrement(token) != 0)
                    {
                        violations.incrementAndGet();
                    }
                    held.decrementAndGet(token);
                    // A refusal is allowed while another thread is still finishing its poll of the slot: retry.
                    while (!queue.offer(token))
                    {
                        Thread.onSpinWait();
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (final Thread worker : workers)
        {
            worker.join(60_000);
            assertFalse(worker.isAlive(), "a worker did not finish");
        }
        assertEquals(0, violations.get(), "a token was held by two threads at once");
        final boolean[] seen = new boolean[tokens];
        Integer token;
        while ((token = queue.poll()) != null)
        {
            assertFalse(seen[token], "token " + token + " twice in the queue");
            seen[token] = true;
        }
        for (int i = 0; i < tokens; i++)
        {
            assertTrue(seen[i], "token " + i + " lost");
        }
    }
}
