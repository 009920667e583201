package io.ingot.ipc;

import io.ingot.libc.Futex;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The futex-backed doorbell: a sleeper is woken by a ring, never misses one that came first, and times out. */
class DoorbellTest
{
    private static final long LONG_SLEEP_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Test
    void futexIsAvailableOnLinux()
    {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "futex(2) is Linux-only");
        assertTrue(Futex.isAvailable(), Futex.unavailableReason());
        assertNull(Futex.unavailableReason());
    }

    @Test
    void aRingWakesASleeperLongBeforeItsTimeout() throws Exception
    {
        assumeTrue(Futex.isAvailable(), Futex.unavailableReason());
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell waiterSide = new Doorbell(memory, 0, 4);
            final Doorbell ringerSide = new Doorbell(memory, 0, 4);
            final CountDownLatch armed = new CountDownLatch(1);
            final CountDownLatch woken = new CountDownLatch(1);
            final AtomicBoolean moved = new AtomicBoolean();
            final Thread sleeper = Thread.ofPlatform().start(() ->
            {
                final int seen = waiterSide.arm();
                armed.countDown();
                moved.set(waiterSide.sleep(seen, LONG_SLEEP_NANOS));
                waiterSide.disarm();
                woken.countDown();
            });
            assertTrue(armed.await(30, TimeUnit.SECONDS));
            assertTrue(ringerSide.ring(), "the ringer saw the waiting flag");
            // The sleep lasts 60 s unless the ring wakes it (or it had not started: then the moved word ends it).
            assertTrue(woken.await(30, TimeUnit.SECONDS), "the ring woke the sleeper");
            assertTrue(moved.get(), "the sleeper saw the doorbell move");
            sleeper.join();
        }
    }

    @Test
    void aRingBeforeTheSleepIsNotLost()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell bell = new Doorbell(memory, 0, 4);
            final int seen = bell.arm();
            assertTrue(bell.ring());
            final long start = System.nanoTime();
            assertTrue(bell.sleep(seen, LONG_SLEEP_NANOS), "the doorbell moved");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "the sleep returned at once");
            bell.disarm();
        }
    }

    @Test
    void withoutAWaiterARingIsOnlyAFlagCheck()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell bell = new Doorbell(memory, 0, 4);
            assertFalse(bell.ring());
            assertEquals(0, memory.get(SharedMemory.INT, 0), "the doorbell did not move");
            bell.ringAlways();
            assertEquals(1, memory.get(SharedMemory.INT, 0), "ringAlways moves it regardless");
        }
    }

    @Test
    void changeAndRingAlwaysMovesTheDoorbellButCallsOnlyForAFlaggedWaiter()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell bell = new Doorbell(memory, 0, 4);
            assertFalse(bell.changeAndRing(), "nobody waits: no wake");
            assertEquals(1, memory.get(SharedMemory.INT, 0), "the doorbell moved regardless");
            memory.set(SharedMemory.INT, 4, 1);
            assertTrue(bell.changeAndRing(), "the flag is up: woken");
            assertEquals(2, memory.get(SharedMemory.INT, 0));
        }
    }

    /**
     * The Python client's sleep (docs/ipc.md, "Wake-ups"): read the doorbell, raise the flag with a plain store, no
     * fence, then FUTEX_WAIT on the value read. {@link Doorbell#changeAndRing()} wakes it long before its timeout.
     */
    @Test
    void changeAndRingWakesAWaiterThatDoesNotFence() throws Exception
    {
        assumeTrue(Futex.isAvailable(), Futex.unavailableReason());
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell ringerSide = new Doorbell(memory, 0, 4);
            final CountDownLatch armed = new CountDownLatch(1);
            final CountDownLatch woken = new CountDownLatch(1);
            final Thread sleeper = Thread.ofPlatform().start(() ->
            {
                final int seen = SharedMemory.getIntAcquire(memory, 0);
                SharedMemory.putIntRelease(memory, 4, 1);
                armed.countDown();
                new Futex().await(memory, 0, seen, LONG_SLEEP_NANOS);
                SharedMemory.putIntRelease(memory, 4, 0);
                woken.countDown();
            });
            assertTrue(armed.await(30, TimeUnit.SECONDS));
            assertTrue(ringerSide.changeAndRing(), "the ringer saw the waiting flag");
            assertTrue(woken.await(30, TimeUnit.SECONDS), "the ring woke the sleeper (or its sleep saw the change)");
            sleeper.join();
        }
    }

    @Test
    void aSleepWithoutARingEndsAtItsTimeout()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(64, 64);
            final Doorbell bell = new Doorbell(memory, 0, 4);
            final int seen = bell.arm();
            assertFalse(bell.sleep(seen, TimeUnit.MILLISECONDS.toNanos(20)), "nobody rang");
            bell.disarm();
            assertEquals(0, memory.get(SharedMemory.INT, 4), "the waiting flag is down again");
        }
    }
}
