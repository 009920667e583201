package io.ingot.benchmarks.ring;

import io.ingot.ring.RequestRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Disruptor baseline behaves as the ring it stands in for: the same public methods as the ring module's
 * {@link RequestRing} (so that the core's scheduler links against it when {@code benchmarks/target/disruptor-ring} is
 * first on the class path), and the same guarantees — items in sequence order, tombstones skipped, nothing lost when
 * many producers fill the ring.
 */
class DisruptorRequestRingTest
{
    @Test
    void hasEveryPublicMethodOfTheCoresRing() throws NoSuchMethodException
    {
        assertFalse(DisruptorRequestRing.class.isAssignableFrom(RequestRing.class),
            "the ring module's RequestRing must be on the test class path, not target/disruptor-ring's");
        assertTrue(RequestRing.class.getDeclaredMethods().length > 5);
        for (final Method method : RequestRing.class.getDeclaredMethods())
        {
            if (!Modifier.isPublic(method.getModifiers()))
            {
                continue;
            }
            final Method stand = DisruptorRequestRing.class.getMethod(method.getName(), method.getParameterTypes());
            assertEquals(method.getReturnType(), stand.getReturnType(), method.getName());
            assertEquals(Modifier.isStatic(method.getModifiers()), Modifier.isStatic(stand.getModifiers()),
                method.getName());
        }
        DisruptorRequestRing.class.getConstructor(int.class, DisruptorRequestRing.Claim.class);
        assertEquals(RequestRing.FULL, DisruptorRequestRing.FULL);
    }

    @ParameterizedTest
    @EnumSource(DisruptorRequestRing.Claim.class)
    void drainsInSequenceOrderAndSkipsTombstones(final DisruptorRequestRing.Claim claim)
    {
        final DisruptorRequestRing<Integer> ring = new DisruptorRequestRing<>(8, claim);
        assertFalse(ring.hasPublished());
        assertTrue(ring.isEmpty());
        final long first = ring.claim();
        final long second = ring.claim();
        final long third = ring.claim();
        ring.publish(second, 2);
        assertFalse(ring.hasPublished(), "the first claimed slot is not published yet");
        assertEquals(0, ring.drain(item -> { }));
        ring.publish(first, null);
        ring.publish(third, 3);
        assertTrue(ring.hasPublished());
        final List<Integer> drained = new ArrayList<>();
        assertEquals(2, ring.drain(drained::add));
        assertEquals(List.of(2, 3), drained);
        assertEquals(2, ring.claimed());
        assertEquals(2, ring.drained());
        assertTrue(ring.isEmpty());
        assertEquals(8, ring.capacity());
    }

    @ParameterizedTest
    @EnumSource(DisruptorRequestRing.Claim.class)
    void aFullRingIsAStatusForTryClaim(final DisruptorRequestRing.Claim claim)
    {
        final DisruptorRequestRing<Integer> ring = new DisruptorRequestRing<>(4, claim);
        for (int i = 0; i < 4; i++)
        {
            ring.publish(ring.tryClaim(), i);
        }
        assertEquals(DisruptorRequestRing.FULL, ring.tryClaim());
        assertEquals(4, ring.occupancy());
        assertEquals(4, ring.drain(item -> { }));
        assertTrue(ring.tryClaim() >= 0);
    }

    @ParameterizedTest
    @EnumSource(DisruptorRequestRing.Claim.class)
    void manyProducersLoseNothingAcrossAFullRing(final DisruptorRequestRing.Claim claim) throws InterruptedException
    {
        final int producers = 4;
        final int perProducer = 20_000;
        final DisruptorRequestRing<long[]> ring = new DisruptorRequestRing<>(16, claim);
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            final Thread thread = new Thread(() ->
            {
                awaitQuietly(start);
                for (int i = 0; i < perProducer; i++)
                {
                    ring.publish(new long[] {producer, i});
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        final int[] nextOf = new int[producers];
        long drained = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (drained < (long)producers * perProducer && System.nanoTime() < deadline)
        {
            drained += ring.drain(item ->
            {
                // Each producer's items arrive in the order it published them.
                assertEquals(nextOf[(int)item[0]]++, item[1], "producer " + item[0]);
            });
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals((long)producers * perProducer, drained);
        assertTrue(Arrays.stream(nextOf).allMatch(next -> next == perProducer));
    }

    @Test
    void anUnknownClaimIsRefusedByName()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> DisruptorRequestRing.Claim.parse("cas"));
        assertEquals("unknown Disruptor claim 'cas'; expected tryNext or next", error.getMessage());
        assertEquals(DisruptorRequestRing.Claim.TRY_NEXT, DisruptorRequestRing.Claim.parse(null));
        assertEquals(DisruptorRequestRing.Claim.NEXT, DisruptorRequestRing.Claim.parse("next"));
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
