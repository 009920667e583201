package io.ingot.device;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The close-once state every device resource relies on to free its handle exactly once. */
class CloseGuardTest
{
    @Test
    void useAfterCloseNamesTheResource()
    {
        final CloseGuard guard = new CloseGuard(CloseGuard.describe("CUDA stream", 0x7f00L));
        guard.ensureOpen();
        assertTrue(guard.tryClose());
        final IllegalStateException error = assertThrows(IllegalStateException.class, guard::ensureOpen);
        assertEquals("CUDA stream 0x7f00 is closed", error.getMessage());
    }

    @Test
    void exactlyOneOfManyConcurrentClosersWins() throws InterruptedException
    {
        for (int round = 0; round < 50; round++)
        {
            final CloseGuard guard = new CloseGuard("resource " + round);
            final AtomicInteger winners = new AtomicInteger();
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++)
            {
                threads.add(Thread.ofPlatform().start(() ->
                {
                    try
                    {
                        start.await();
                    }
                    catch (final InterruptedException interrupted)
                    {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    if (guard.tryClose())
                    {
                        winners.incrementAndGet();
                    }
                }));
            }
            start.countDown();
            for (final Thread thread : threads)
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertEquals(1, winners.get(), "round " + round);
            assertTrue(guard.isClosed());
        }
    }
}
