package io.ingot.dispatch;

import io.ingot.agent.ThreadBell;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.DynamicBatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.Ending;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.time.NanoClock;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler's hand-off rules, driven from the test thread as an instance and a producer would: the role, the
 * wake-ups a publish and a hand-off cause, a full ring, the queue limits and the stop.
 */
class ModelSchedulerTest
{
    private static final int RING = 4;

    private final ThreadBell timekeeperBell = new ThreadBell();
    private final Seat[] seats = {new Seat(), new Seat()};
    private LevelAdmission admission;

    private ModelScheduler scheduler(final String dynamicBatching)
    {
        return scheduler(dynamicBatching, RING);
    }

    private ModelScheduler scheduler(final String dynamicBatching, final int ringSize)
    {
        final ModelConfig config = TestModels.config("name: 'm' max_batch_size: 8"
            + " input [{ name: 'IN' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUT' data_type: TYPE_INT32 dims: [1] }] " + dynamicBatching);
        final SchedulerSettings settings = SchedulerSettings.of(config);
        admission = new LevelAdmission(settings);
        final BatchPolicy policy = new DynamicBatchPolicy(settings, true, admission);
        final ModelScheduler scheduler = new ModelScheduler("m", settings, policy, admission, ringSize,
            NanoClock.SYSTEM, new Timekeeper(timekeeperBell, NanoClock.SYSTEM));
        scheduler.seat(seats);
        return scheduler;
    }

    /** @return dynamic batching that sends at once, with the preferred size normalization gives (the maximum) */
    private static String immediate(final String more)
    {
        return "dynamic_batching { preferred_batch_size: [8] max_queue_delay_microseconds: 0 " + more + " }";
    }

    private static PendingRequest pending(final String id)
    {
        final PendingRequest pending = new PendingRequest();
        pending.request = new InferenceRequest("m").id(id);
        pending.listener = response -> { };
        pending.batchSize = 1;
        return pending;
    }

    @Test
    void aProducerDrainsAFullRingItselfWhileNoInstanceHoldsTheRole()
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        for (int i = 0; i < 5 * RING; i++)
        {
            scheduler.submit(pending("r" + i));
        }
        assertTrue(scheduler.isRoleFree(), "the producer gave the role back after draining");
        assertEquals(5 * RING, scheduler.queuedRequests());

        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals(8, batch.count());
        for (int i = 0; i < 8; i++)
        {
            assertEquals("r" + i, batch.get(i).request.id(), "arrival order kept across the producer's drains");
        }
        assertEquals(5 * RING - 8, scheduler.queuedRequests());
    }

    @Test
    void producersShareOneRoleIdYetNeverHoldTheRoleTogether()
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        assertTrue(scheduler.tryAcquireRole(ModelScheduler.PRODUCER));
        assertFalse(scheduler.tryAcquireRole(ModelScheduler.PRODUCER),
            "a second producer must not drain the ring while the first one does");
        assertFalse(scheduler.tryAcquireRole(ModelScheduler.TIMEKEEPER));
        scheduler.releaseRole(ModelScheduler.PRODUCER);
        assertTrue(scheduler.isRoleFree());
    }

    @Test
    void manyProducersDrainingAFullRingAtOnceLoseAndDuplicateNothing() throws Exception
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        final int producers = 4;
        final int each = 50 * RING;
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int producer = p;
            final Thread.Builder builder = Thread.ofPlatform().daemon()
                .uncaughtExceptionHandler((thread, ex) -> failures.add(ex));
            threads.add(builder.start(() ->
            {
                for (int i = 0; i < each; i++)
                {
                    scheduler.submit(pending(producer + ":" + i));
                }
            }));
        }
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(thread.isAlive(), "a producer is stuck on the full ring");
        }
        assertEquals(List.of(), List.copyOf(failures), "a producer failed while helping to drain");
        assertTrue(scheduler.isRoleFree());
        assertEquals(producers * each, scheduler.queuedRequests());

        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        final Set<String> seen = new HashSet<>();
        final int[] next = new int[producers];
        assertTrue(scheduler.tryAcquireRole(1));
        while (scheduler.decide(0, batch, ended) == BatchPolicy.DISPATCH)
        {
            for (int i = 0; i < batch.count(); i++)
            {
                final String id = batch.get(i).request.id();
                assertTrue(seen.add(id), "dispatched twice: " + id);
                final int producer = Integer.parseInt(id.substring(0, id.indexOf(':')));
                assertEquals(producer + ":" + next[producer]++, id, "each producer's order is kept");
            }
            batch.clear();
        }
        assertEquals(producers * each, seen.size());
    }

    @Test
    void aProducerFacingAFullRingWaitsForTheRoleHoldersDrainAndLosesNothing() throws Exception
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        assertTrue(scheduler.tryAcquireRole(1), "an instance holds the role: the producer cannot drain");
        final Thread producer = Thread.ofPlatform().start(() ->
        {
            for (int i = 0; i < RING + 3; i++)
            {
                scheduler.submit(pending("p" + i));
            }
        });
        while (scheduler.queuedRequests() < RING)
        {
            Thread.onSpinWait();
        }
        assertTrue(producer.isAlive(), "the fifth submission waits for a free slot");

        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        final Set<String> seen = new HashSet<>();
        while (seen.size() < RING + 3)
        {
            batch.clear();
            if (scheduler.decide(0, batch, ended) == BatchPolicy.DISPATCH)
            {
                for (int i = 0; i < batch.count(); i++)
                {
                    assertTrue(seen.add(batch.get(i).request.id()), "dispatched twice: " + batch.get(i).request.id());
                }
            }
            Thread.onSpinWait();
        }
        producer.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(producer.isAlive());
        assertEquals(0, ended.count());
    }

    @Test
    void aPublishRingsTheWatcherAndOtherwiseOneFollowingInstance()
    {
        final ModelScheduler scheduler = scheduler("dynamic_batching { }");
        final ThreadBell watcherBell = seats[0].bell();
        final ThreadBell followerBell = seats[1].bell();
        watcherBell.arm();
        followerBell.arm();
        seats[1].following(true);

        assertTrue(scheduler.tryAcquireRole(1));
        scheduler.watch(watcherBell);
        scheduler.submit(pending("a"));
        assertEquals(1, watcherBell.ringCount(), "the watcher is rung");
        assertEquals(0, followerBell.ringCount(), "a watcher being there, nobody else is disturbed");
        assertTrue(scheduler.hasNews());

        scheduler.releaseRole(1);
        scheduler.submit(pending("b"));
        assertEquals(1, watcherBell.ringCount(), "the released role has no watcher");
        assertEquals(1, followerBell.ringCount(), "without a watcher one following instance is rung to take the role");
    }

    @Test
    void aHandOffWithWorkLeftRingsAFollowerAndWithoutWorkRingsNobody()
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        final ThreadBell followerBell = seats[1].bell();
        followerBell.arm();
        seats[1].following(true);
        for (int i = 0; i < 10; i++)
        {
            scheduler.submit(pending("r" + i));
        }
        final int ringsBefore = followerBell.ringCount();
        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();

        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        scheduler.handOff(1);
        assertTrue(scheduler.isRoleFree());
        assertEquals(8, batch.count());
        assertEquals(ringsBefore + 1, followerBell.ringCount(), "two requests left: the follower takes over");

        assertTrue(scheduler.tryAcquireRole(2));
        batch.clear();
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(1, batch, ended));
        assertEquals(2, batch.count());
        scheduler.handOff(2);
        assertEquals(ringsBefore + 1, followerBell.ringCount(), "nothing left: nobody is woken");
    }

    @Test
    void aFullLevelRefusesWithTritonsMessageUntilADispatchFreesIt()
    {
        final ModelScheduler scheduler = scheduler(immediate("default_queue_policy { max_queue_size: 2 }"));
        scheduler.submit(pending("one"));
        scheduler.submit(pending("two"));
        final InferenceException full = assertThrows(InferenceException.class,
            () -> scheduler.submit(pending("three")));
        assertEquals(ErrorCode.UNAVAILABLE, full.code());
        assertEquals("[request id: three] Exceeds maximum queue size", full.getMessage());

        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, new FormedBatch(8), new EndedRequests()));
        scheduler.handOff(1);
        scheduler.submit(pending("three"));
        assertEquals(1, scheduler.queuedRequests());
    }

    @Test
    void aCancellationAsksForASweepThatTheTimekeeperIsWokenForWhenNobodyWatches()
    {
        final ModelScheduler scheduler = scheduler("dynamic_batching { }");
        timekeeperBell.arm();
        final PendingRequest request = pending("c");
        scheduler.submit(request);
        request.request.cancel();
        scheduler.requestSweep();
        assertTrue(scheduler.needsSweep(System.nanoTime()));
        assertEquals(1, timekeeperBell.ringCount(), "no instance idle: the timekeeper answers the cancellation");

        assertTrue(scheduler.tryAcquireRole(ModelScheduler.TIMEKEEPER));
        final EndedRequests ended = new EndedRequests();
        scheduler.sweep(ended);
        scheduler.releaseRole(ModelScheduler.TIMEKEEPER);
        assertEquals(1, ended.count());
        assertEquals(Ending.CANCELLED, ended.ending(0));
        assertFalse(scheduler.needsSweep(System.nanoTime()));
        assertEquals(0, scheduler.queuedRequests());
    }

    @Test
    void theTimekeeperGivingTheRoleBackWithWorkLeftRingsTheInstanceThatFoundItTaken()
    {
        final ModelScheduler scheduler = scheduler("dynamic_batching { }");
        final ThreadBell followerBell = seats[0].bell();
        assertTrue(scheduler.tryAcquireRole(ModelScheduler.TIMEKEEPER));
        scheduler.submit(pending("queued"));
        scheduler.sweep(new EndedRequests());

        // The instance finished its batch meanwhile: the role is taken, so it follows and goes to sleep.
        seats[0].following(true);
        assertFalse(scheduler.tryAcquireRole(1));
        followerBell.arm();
        scheduler.releaseAfterSweep();
        assertEquals(1, followerBell.ringCount(), "a request is queued: the sleeping instance is woken to run it");
        assertTrue(scheduler.tryAcquireRole(1));
    }

    @Test
    void theStopEndsEveryQueuedRequestOnceAndRefusesLaterOnesWithTritonsMessage()
    {
        final ModelScheduler scheduler = scheduler("dynamic_batching { }");
        for (int i = 0; i < 2 * RING; i++)
        {
            scheduler.submit(pending("q" + i));
        }
        final ThreadBell instanceBell = seats[0].bell();
        instanceBell.arm();
        scheduler.stop();
        assertEquals(1, instanceBell.ringCount(), "every instance is woken to give the role up");
        assertTrue(scheduler.hasNews());

        final EndedRequests ended = new EndedRequests();
        scheduler.endQueueAtStop(ended);
        assertEquals(2 * RING, ended.count());
        final Set<String> ids = new HashSet<>();
        for (int i = 0; i < ended.count(); i++)
        {
            assertEquals(Ending.STOPPING, ended.ending(i));
            ids.add(ended.request(i).request.id());
        }
        assertEquals(2 * RING, ids.size(), "each queued request ended once");
        assertTrue(scheduler.isRoleFree());

        final EndedRequests again = new EndedRequests();
        scheduler.endQueueAtStop(again);
        assertEquals(0, again.count(), "a second stop finds nothing");

        final InferenceException refused = assertThrows(InferenceException.class,
            () -> scheduler.submit(pending("")));
        assertEquals(ErrorCode.UNAVAILABLE, refused.code());
        assertEquals("[request id: <id_unknown>] Server is stopping, scheduler for model has stopped accepting new"
            + " inference requests", refused.getMessage());
    }

    @Test
    void aCancellationIsSweptBeforeTheNextDecisionSoTheCancelledRequestIsNeverBatched()
    {
        final ModelScheduler scheduler = scheduler(immediate(""));
        final List<PendingRequest> requests = List.of(pending("a"), pending("b"), pending("c"));
        requests.forEach(scheduler::submit);
        requests.get(1).request.cancel();
        scheduler.requestSweep();  // what the request's cancel hook runs

        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals(List.of("a", "c"), ids(batch));
        assertEquals(1, ended.count());
        assertEquals("b", ended.request(0).request.id());
        assertEquals(Ending.CANCELLED, ended.ending(0));
    }

    @Test
    void whileAFullBatchIsQueuedLaterArrivalsWaitInTheRingAndBatchesKeepArrivalOrder()
    {
        final ModelScheduler scheduler = scheduler(immediate(""), 64);
        int next = 0;
        for (; next < 20; next++)
        {
            scheduler.submit(pending("r" + next));
        }
        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals(12, scheduler.queuedRequests(), "an empty queue drains the whole ring first");
        for (; next < 23; next++)
        {
            scheduler.submit(pending("r" + next));
        }

        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals(List.of("r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"), ids(batch));
        assertEquals(7, scheduler.queuedRequests(), "accepted and not yet in a batch: 4 queued, 3 in the ring");
        assertTrue(scheduler.hasNews(), "12 queued settled this batch: the 3 new ones still wait in the ring");

        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals(List.of("r16", "r17", "r18", "r19", "r20", "r21", "r22"), ids(batch),
            "a queue short of a full batch drains the ring: the later arrivals follow in order");
        assertEquals(0, ended.count());
    }

    @Test
    void withPriorityLevelsEveryDecisionDrainsTheRingSoALaterUrgentRequestRunsNext()
    {
        final ModelScheduler scheduler = scheduler(
            immediate("priority_levels: 2 default_priority_level: 2"), 64);
        for (int i = 0; i < 20; i++)
        {
            scheduler.submit(pending("low" + i));
        }
        final FormedBatch batch = new FormedBatch(8);
        final EndedRequests ended = new EndedRequests();
        assertTrue(scheduler.tryAcquireRole(1));
        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        final PendingRequest urgent = pending("urgent");
        urgent.request.priority(1);
        scheduler.submit(urgent);

        assertEquals(BatchPolicy.DISPATCH, scheduler.decide(0, batch, ended));
        assertEquals("urgent", batch.get(0).request.id(), "a higher level goes first, as in Triton");
    }

    private static List<String> ids(final FormedBatch batch)
    {
        final List<String> ids = new ArrayList<>();
        for (int i = 0; i < batch.count(); i++)
        {
            ids.add(batch.get(i).request.id());
        }
        return ids;
    }
}
