package io.ingot.ratelimit;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.RateLimitResource;
import io.ingot.config.proto.ModelRateLimiter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's rate limiter, on one thread: resource counts (core {@code src/rate_limiter.cc}, {@code ResourceManager}),
 * its messages, and who executes next ({@code ScaledPriority}, {@code AttemptAllocation}).
 */
class RateLimiterTest
{
    private static ModelRateLimiter limits(final int priority, final Object... nameCountGlobal)
    {
        final ModelRateLimiter.Builder builder = ModelRateLimiter.newBuilder().setPriority(priority);
        for (int i = 0; i < nameCountGlobal.length; i += 3)
        {
            builder.addResources(ModelRateLimiter.Resource.newBuilder().setName((String)nameCountGlobal[i])
                .setCount((Integer)nameCountGlobal[i + 1]).setGlobal((Boolean)nameCountGlobal[i + 2]));
        }
        return builder.build();
    }

    private static RateLimiter limiter(final RateLimitResource... resources)
    {
        return new RateLimiter(List.of(resources));
    }

    @Test
    void eachCountIsTheLargestDemandAndFollowsLoadsAndUnloads()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim small = limiter.register("a", "a_0", limits(0, "R1", 2, false, "G", 1, true), 0);
        limiter.register("b", "b_0", limits(0, "R1", 4, false), 1);
        final InstanceClaim large = limiter.register("c", "c_0", limits(0, "R1", 5, false, "G", 3, true), 0);
        final Map<String, long[]> pools = limiter.pools();
        assertEquals(List.of("GLOBAL/G", "0/R1", "1/R1"), List.copyOf(pools.keySet()), "per device, global apart");
        assertArrayEquals(new long[] {3, 0}, pools.get("GLOBAL/G"));
        assertArrayEquals(new long[] {5, 0}, pools.get("0/R1"));
        assertArrayEquals(new long[] {4, 0}, pools.get("1/R1"));
        large.close();
        assertArrayEquals(new long[] {2, 0}, limiter.pools().get("0/R1"), "recomputed without the largest");
        assertArrayEquals(new long[] {1, 0}, limiter.pools().get("GLOBAL/G"));
        small.close();
        assertEquals(List.of("1/R1"), List.copyOf(limiter.pools().keySet()));
    }

    @Test
    void anExplicitCountBelowADemandFailsTheLoadWithTritonsMessage()
    {
        final RateLimiter limiter = limiter(new RateLimitResource("resource1", 3, RateLimitResource.EVERY_DEVICE));
        limiter.register("a", "a_0", limits(0, "resource1", 3, false), 0);
        final InferenceException refused = assertThrows(InferenceException.class,
            () -> limiter.register("b", "b_0", limits(0, "resource1", 4, false), 0));
        assertEquals(ErrorCode.INVALID_ARG, refused.code());
        assertEquals("Resource count for \"resource1\" is limited to 3 which will prevent scheduling of one or more "
            + "model instances, the minimum required count is 4", refused.getMessage());
        assertArrayEquals(new long[] {3, 0}, limiter.pools().get("0/resource1"), "the refused instance left nothing");
        final InferenceException unnamed = assertThrows(InferenceException.class,
            () -> limiter.register("c", "c_0", limits(0, "other", 1, false), 0));
        assertEquals("Resource count for \"other\" is limited to 0 which will prevent scheduling of one or more "
            + "model instances, the minimum required count is 1", unnamed.getMessage(),
            "once counts are given, a resource not given has none, as in Triton");
    }

    @Test
    void explicitCountsApplyPerDeviceEveryDeviceAndGlobally()
    {
        final RateLimiter limiter = limiter(new RateLimitResource("R", 2, RateLimitResource.EVERY_DEVICE),
            new RateLimitResource("R", 6, 1), new RateLimitResource("R", 9, 1),
            new RateLimitResource("G", 7, 3), new RateLimitResource("G", 5, RateLimitResource.EVERY_DEVICE));
        limiter.register("a", "a_0", limits(0, "R", 1, false, "G", 1, true), 0);
        limiter.register("b", "b_1", limits(0, "R", 1, false), 1);
        final Map<String, long[]> pools = limiter.pools();
        assertEquals(2, pools.get("0/R")[0], "device 0 has the every-device count");
        assertEquals(6, pools.get("1/R")[0], "device 1 its own, the smaller of the two given (Triton keeps the min)");
        assertEquals(7, pools.get("GLOBAL/G")[0], "a global resource takes the largest count of any device");
    }

    @Test
    void aResourceBothGlobalAndPerDeviceIsRefused()
    {
        final RateLimiter limiter = limiter();
        limiter.register("a", "a_0", limits(0, "R", 1, true), 0);
        final InferenceException conflict = assertThrows(InferenceException.class,
            () -> limiter.register("b", "b_0", limits(0, "R", 1, false), 0));
        assertEquals("Resource \"R\" is present as both global and device-specific resource in the model "
            + "configuration.", conflict.getMessage());
        assertEquals(List.of("GLOBAL/R"), List.copyOf(limiter.pools().keySet()));
    }

    @Test
    void aStagedInstanceRunsWhenTheHolderReleasesAndWakesOnItsBell()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim a = limiter.register("a", "a_0", limits(0, "R", 1, false), 0);
        final InstanceClaim b = limiter.register("b", "b_0", limits(0, "R", 1, false), 0);
        final io.ingot.agent.ThreadBell bell = new io.ingot.agent.ThreadBell();
        b.wakeWith(bell);
        assertTrue(a.tryAcquire());
        assertArrayEquals(new long[] {1, 1}, limiter.pools().get("0/R"));
        bell.arm();
        assertFalse(b.tryAcquire(), "the one unit is taken");
        assertFalse(b.isGranted());
        a.release();
        assertTrue(b.isGranted(), "the release grants the staged instance");
        assertEquals(1, bell.ringCount(), "and rings it");
        b.release();
        assertArrayEquals(new long[] {1, 0}, limiter.pools().get("0/R"));
    }

    @Test
    void priorityTwoGetsHalfTheTurnsOfPriorityOne()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim one = limiter.register("one", "one_0", limits(1, "R", 1, false), 0);
        final InstanceClaim two = limiter.register("two", "two_0", limits(2, "R", 1, false), 0);
        final InstanceClaim holder = limiter.register("h", "h_0", limits(0, "R", 1, false), 0);
        assertTrue(holder.tryAcquire());
        assertFalse(one.tryAcquire());
        assertFalse(two.tryAcquire());
        holder.release();
        final List<String> turns = new ArrayList<>();
        for (int i = 0; i < 30; i++)
        {
            final InstanceClaim running = one.isGranted() ? one : two;
            assertTrue(running.isGranted());
            assertFalse((running == one ? two : one).isGranted(), "never both: one unit");
            turns.add(running.model());
            running.release(true);  // both models have more work: the releaser is weighed against the other
        }
        assertEquals(20, turns.stream().filter("one"::equals).count(), turns.toString());
        assertEquals(10, turns.stream().filter("two"::equals).count(), turns.toString());
    }

    @Test
    void theHeadOfTheQueueBlocksThoseBehindItEvenWhenTheyWouldFit()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim holder = limiter.register("h", "h_0", limits(0, "R", 1, false), 0);
        final InstanceClaim large = limiter.register("large", "large_0", limits(0, "R", 2, false), 0);
        final InstanceClaim small = limiter.register("small", "small_0", limits(0, "R", 1, false), 0);
        final InstanceClaim free = limiter.register("free", "free_0", ModelRateLimiter.getDefaultInstance(), 0);
        assertTrue(holder.tryAcquire());
        assertFalse(large.tryAcquire(), "needs both units");
        assertFalse(small.tryAcquire(), "one unit is free, but the large instance is first");
        assertFalse(free.tryAcquire(), "no resources, yet behind the head too (Triton's strict order)");
        holder.release();
        assertTrue(large.isGranted());
        assertFalse(small.isGranted());
        assertFalse(free.isGranted(), "still behind the small one");
        large.release();
        assertTrue(small.isGranted());
        assertTrue(free.isGranted(), "one release grants every head that fits, in turn");
    }

    @Test
    void aReleaseWithMoreWorkStagesAgainAndAWithdrawalGivesTheTurnBack()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim a = limiter.register("a", "a_0", limits(0, "R", 1, false), 0);
        final InstanceClaim b = limiter.register("b", "b_0", limits(0, "R", 1, false), 0);
        assertTrue(a.tryAcquire());
        a.release(true);
        assertTrue(a.isGranted(), "nobody else waits: granted again for its next batch");
        assertTrue(a.tryAcquire(), "which the next batch then finds");
        assertFalse(b.tryAcquire());
        a.release(true);
        assertTrue(b.isGranted(), "b has run less");
        assertTrue(a.isWaiting());
        a.withdraw();
        assertFalse(a.isWaiting(), "no batch formed: a leaves the queue");
        b.release(true);
        assertTrue(b.isGranted());
        b.withdraw();
        assertArrayEquals(new long[] {1, 0}, limiter.pools().get("0/R"), "a withdrawn grant gives its units back");
    }

    @Test
    void aClosedInstanceLeavesTheQueueAndTheOthersGoOn()
    {
        final RateLimiter limiter = limiter();
        final InstanceClaim holder = limiter.register("h", "h_0", limits(0, "R", 1, false), 0);
        final InstanceClaim large = limiter.register("large", "large_0", limits(0, "R", 2, false), 0);
        final InstanceClaim small = limiter.register("small", "small_0", limits(0, "R", 1, false), 0);
        assertTrue(holder.tryAcquire());
        assertFalse(large.tryAcquire());
        assertFalse(small.tryAcquire());
        large.close();
        assertArrayEquals(new long[] {1, 1}, limiter.pools().get("0/R"), "the count shrinks back to 1");
        assertFalse(small.isGranted());
        holder.release();
        assertTrue(small.isGranted());
    }
}
