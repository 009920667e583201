package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.ingot.scheduler.PolicyBench.MS;
import static io.ingot.scheduler.PolicyBench.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adaptive policy, decision by decision, with a clock the test moves by hand and execution times reported as the
 * instance would report them: a model whose batch of {@code s} takes 2 ms + 0.1 ms·s (the cost model's shape).
 */
class AdaptiveBatchPolicyTest
{
    private static final long A = 2 * MS;
    private static final long B = 100 * US;
    private static final long GAP = 20 * US;

    private static PolicyBench bench(final long sloNs, final String batching)
    {
        return new PolicyBench(PolicyBench.MODEL + batching, (settings, admission) ->
            new AdaptiveBatchPolicy(settings, true, admission, 1, sloNs, 99));
    }

    /** A bench whose instance has run every batch size 1..8 a few times. */
    private static PolicyBench trained(final long sloNs)
    {
        final PolicyBench bench = bench(sloNs, "dynamic_batching { }");
        for (int size = 1; size <= 8; size++)
        {
            bench.learn(size, A, B, ExecutionTimes.MIN_SAMPLES);
        }
        return bench;
    }

    /** {@code count} requests {@code gapNs} apart, the instance deciding after each: the statuses, in order. */
    private static List<Integer> arriveAndDecide(final PolicyBench bench, final int count, final long gapNs)
    {
        final List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            bench.submit();
            statuses.add(bench.decide());
            bench.now += gapNs;
        }
        return statuses;
    }

    @Test
    void atConcurrencyOneItNeverWaitsBecauseTheNextRequestComesOnlyAfterTheResponse()
    {
        final PolicyBench bench = trained(20 * MS);
        for (int round = 0; round < 10; round++)
        {
            bench.submit();
            assertEquals(BatchPolicy.DISPATCH, bench.decide(), "round " + round + ": waiting cannot grow the batch");
            assertEquals(1, bench.batch.batchSize());
            // The closed loop's client sends again once its response is back: execution plus a little.
            bench.now += A + B + 100 * US;
        }
    }

    @Test
    void waitsToGrowTheBatchWhileArrivalsAreDenseAndDispatchesAtTheMaximum()
    {
        final PolicyBench bench = trained(20 * MS);
        final List<Integer> statuses = arriveAndDecide(bench, 10, GAP);
        final int w = BatchPolicy.WAIT;
        assertEquals(List.of(BatchPolicy.DISPATCH, BatchPolicy.DISPATCH, w, w, w, w, w, w, w, BatchPolicy.DISPATCH),
            statuses, "the first two dispatch (no gaps seen yet), then it waits until max_batch_size");
        assertEquals(8, bench.batch.batchSize(), "the eight that arrived after the first two");
    }

    @Test
    void underLoadItWaitsForTheBatchSizeThatKeepsTheInstanceOutOfSaturation()
    {
        // One request a millisecond on one instance: batches of one or two would overload it (2.1 ms per request,
        // 1.1 ms), three keep it 77 % busy (a long wait for it); four are the size of least predicted latency.
        // Waiting for a single next request does not pay here ((n + 1)·(g + b) >= a + b), so the myopic rule alone
        // would dispatch each request as it comes.
        final PolicyBench bench = trained(20 * MS);
        final List<Integer> statuses = arriveAndDecide(bench, 6, MS);
        final int w = BatchPolicy.WAIT;
        assertEquals(List.of(BatchPolicy.DISPATCH, BatchPolicy.DISPATCH, w, w, w, BatchPolicy.DISPATCH), statuses,
            "the first two dispatch (no gaps seen yet), then it waits until four are queued");
        assertEquals(4, bench.batch.batchSize());
    }

    @Test
    void stopsWaitingWhenTheArrivalsStop()
    {
        final PolicyBench bench = trained(20 * MS);
        for (int i = 0; i < 3; i++)
        {
            bench.submit();
            bench.now += GAP;
        }
        bench.now -= GAP;
        assertEquals(BatchPolicy.WAIT, bench.decide());
        final long until = bench.batch.waitUntilNs();
        assertTrue(until - bench.now <= ArrivalGaps.SILENCE * 2 * GAP, "waits a few gaps, not a queue delay: "
            + (until - bench.now) + " ns");
        bench.now = until;
        assertEquals(BatchPolicy.DISPATCH, bench.decide(), "nothing came: the burst is over");
        assertEquals(3, bench.batch.batchSize());
    }

    @Test
    void neverWaitsPastTheTimeTheOldestRequestCanStillMeetTheSlo()
    {
        final long slo = 2_500 * US;
        final PolicyBench bench = trained(slo);
        warmArrivals(bench);
        final long oldest = bench.now;
        int size = 0;
        int waits = 0;
        while (true)
        {
            bench.submit();
            size++;
            final int status = bench.decide();
            if (status == BatchPolicy.DISPATCH)
            {
                break;
            }
            {
                waits++;
                final long predicted = bench.batch.waitUntilNs() - oldest + A + B * (size + 1);
                assertTrue(predicted <= slo, "a wait until " + bench.batch.waitUntilNs() + " would end at "
                    + predicted + " ns > SLO " + slo);
            }
            bench.now += GAP;
        }
        assertTrue(waits > 0, "it did wait while the SLO allowed");
        assertTrue(bench.now - oldest + A + B * bench.batch.batchSize() <= slo,
            "the dispatched batch meets the SLO: " + bench.batch.batchSize() + " requests at " + (bench.now - oldest));
        assertTrue(bench.batch.batchSize() < 8, "the SLO, not max_batch_size, ended the wait");
    }

    /** Two requests, {@link #GAP} apart, dispatched at once: the policy has seen two gaps afterwards. */
    private static void warmArrivals(final PolicyBench bench)
    {
        for (int i = 0; i < 2; i++)
        {
            bench.submit();
            assertEquals(BatchPolicy.DISPATCH, bench.decide());
            bench.now += GAP;
        }
    }

    /**
     * Sixteen requests 5 ms apart, each dispatched alone: arrivals sparse enough that the load needs no batch (the
     * mean gap stays above {@code E(1)} even after a clump of eight).
     */
    private static void sparseArrivals(final PolicyBench bench)
    {
        for (int i = 0; i < ArrivalGaps.WINDOW; i++)
        {
            bench.submit();
            assertEquals(BatchPolicy.DISPATCH, bench.decide());
            bench.now += 5 * MS;
        }
    }

    /** One request, 2.5 ms later {@code more} at once: the oldest has used half of a 5 ms SLO. */
    private static void oldestThenMore(final PolicyBench bench, final int more)
    {
        bench.submit();
        bench.now += 2_500 * US;
        for (int i = 0; i < more; i++)
        {
            bench.submit();
        }
    }

    @Test
    void dispatchesASmallerBatchWhenOnlyThatLetsTheOldestMeetTheSlo()
    {
        final PolicyBench bench = trained(5 * MS);
        sparseArrivals(bench);
        oldestThenMore(bench, 7);
        bench.now += 200 * US;
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(3, bench.batch.batchSize(), "2.7 ms queued + 2.3 ms for three = 5 ms; four would miss");
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(5, bench.batch.batchSize(), "the rest, younger, together");
    }

    @Test
    void doesNotShrinkTheBatchBelowTheSizeTheLoadNeeds()
    {
        final PolicyBench bench = trained(5 * MS);
        // Dense arrivals, 20 us apart (the last ten dispatched as one batch of eight and two before it): no batch
        // size of one instance keeps up, so the load needs the largest.
        arriveAndDecide(bench, 10, GAP);
        oldestThenMore(bench, 7);
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(8, bench.batch.batchSize(), "a batch of five would save the oldest and lose the throughput");
    }

    @Test
    void doesNotShrinkTheBatchWhileRequestsWaitBeyondIt()
    {
        final PolicyBench bench = trained(5 * MS);
        sparseArrivals(bench);
        oldestThenMore(bench, 9);
        bench.now += 200 * US;
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(8, bench.batch.batchSize(), "a backlog: a smaller batch would make it grow");
        assertEquals(2, bench.policy.queuedRequests());
    }

    @Test
    void waitsForTheLoadsBatchSizeOnlyWhileSomeSizeKeepsUpWithTheArrivals()
    {
        // a = b = 400 us: one more request in the batch costs as much as the batch itself, so the myopic rule never
        // waits once two are queued; only the load's batch size can make the policy wait.
        final PolicyBench keepsUp = bench(20 * MS, "dynamic_batching { }");
        final PolicyBench overloaded = bench(20 * MS, "dynamic_batching { }");
        for (int size = 1; size <= 8; size++)
        {
            keepsUp.learn(size, 400 * US, 400 * US, ExecutionTimes.MIN_SAMPLES);
            overloaded.learn(size, 400 * US, 400 * US, ExecutionTimes.MIN_SAMPLES);
        }
        assertEquals(BatchPolicy.WAIT, arriveAndDecide(keepsUp, 5, 600 * US).get(4),
            "600 us apart a batch of 3 or more keeps up: wait for the size that keeps the instance out of saturation");
        assertEquals(BatchPolicy.DISPATCH, arriveAndDecide(overloaded, 5, 100 * US).get(4),
            "100 us apart no size keeps up: the queue grows behind the busy instance anyway, so a free one runs");
    }

    @Test
    void plansTheWaitWithTheExecutionTimesSpreadAsAMargin()
    {
        final long slo = 3 * MS;
        final long spread = 200 * US;
        final PolicyBench bench = bench(slo, "dynamic_batching { }");
        for (int size = 1; size <= 8; size++)
        {
            // Median a + b·s, planned (the window's 99th percentile) 200 us more: not an outlier, a spread.
            bench.learn(size, A, B, 2);
            bench.policy.executed(0, size, A + B * size + spread);
        }
        warmArrivals(bench);
        final long oldest = bench.now;
        int size = 0;
        int waits = 0;
        while (true)
        {
            bench.submit();
            size++;
            if (bench.decide() == BatchPolicy.DISPATCH)
            {
                break;
            }
            waits++;
            final long planned = A + B * (size + 1) + spread;
            assertTrue(bench.batch.waitUntilNs() - oldest + planned + spread <= slo,
                "a wait until " + bench.batch.waitUntilNs() + " leaves no margin for the spread");
            bench.now += GAP;
        }
        assertTrue(waits > 0, "it did wait while the SLO allowed");
        assertTrue(bench.now - oldest + A + B * bench.batch.batchSize() + 2 * spread <= slo + GAP,
            "dispatched with the margin left: " + bench.batch.batchSize() + " requests at " + (bench.now - oldest));
    }

    @Test
    void aRequestThatCannotMeetTheSloAnyMoreGoesWithTheWholeBatch()
    {
        final PolicyBench bench = trained(5 * MS);
        bench.submit();
        bench.now += 4 * MS;
        for (int i = 0; i < 7; i++)
        {
            bench.submit();
        }
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(8, bench.batch.batchSize(), "splitting saves nobody: keep the throughput");
    }

    @Test
    void withNothingLearntItDispatchesWhatIsQueuedAtOnce()
    {
        final PolicyBench bench = bench(20 * MS, "dynamic_batching { }");
        for (int i = 0; i < 4; i++)
        {
            bench.submit();
            bench.now += GAP;
        }
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(4, bench.batch.batchSize());
    }

    @Test
    void keepsTheDynamicBatchersPriorityLevelsAndRejectTimeouts()
    {
        final PolicyBench bench = bench(20 * MS, "dynamic_batching { priority_levels: 2 default_priority_level: 2"
            + " default_queue_policy { timeout_action: REJECT default_timeout_microseconds: 1000 } }");
        final PendingRequest low = bench.submit(2, 0);
        final PendingRequest high = bench.submit(1, 0);
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(high, bench.batch.get(0), "the higher priority first");
        assertEquals(low, bench.batch.get(1));
        final PendingRequest late = bench.submit();
        bench.now += 2 * MS;
        assertEquals(BatchPolicy.EMPTY, bench.decide());
        assertEquals(1, bench.ended.count());
        assertEquals(late, bench.ended.request(0));
        assertEquals(Ending.TIMED_OUT, bench.ended.ending(0));
        assertEquals(0, bench.policy.queuedRequests());
    }

    @Test
    void keepsPerLevelQueueLimitsAndDelayTimeouts()
    {
        final PolicyBench bench = bench(20 * MS, "dynamic_batching { priority_levels: 2 default_priority_level: 2"
            + " priority_queue_policy { key: 1 value { timeout_action: DELAY default_timeout_microseconds: 1000 } }"
            + " default_queue_policy { max_queue_size: 1 } }");
        final PendingRequest delayed = bench.submit(1, 0);
        bench.now += 2 * MS;
        final PendingRequest fresh = bench.submit(1, 0);
        final PendingRequest low = bench.submit(2, 0);
        assertFalse(bench.admission.tryAdmit(2), "level 2 holds its max_queue_size of 1");
        assertEquals(BatchPolicy.DISPATCH, bench.decide());
        assertEquals(List.of(fresh, delayed, low), List.of(bench.batch.get(0), bench.batch.get(1),
            bench.batch.get(2)), "the expired level-1 request (DELAY) behind its level's unexpired one, ahead of"
            + " level 2");
        assertEquals(0, bench.ended.count(), "DELAY ends nothing");
        assertTrue(bench.admission.tryAdmit(2), "level 2's place is free once its request left the queue");
    }

    @Test
    void learnsPerInstance()
    {
        final AdaptiveBatchPolicy[] policy = new AdaptiveBatchPolicy[1];
        final PolicyBench bench = new PolicyBench(PolicyBench.MODEL + "dynamic_batching { }", (settings, admission) ->
            policy[0] = new AdaptiveBatchPolicy(settings, true, admission, 2, 20 * MS, 99));
        for (int size = 1; size <= 8; size++)
        {
            for (int i = 0; i < ExecutionTimes.MIN_SAMPLES; i++)
            {
                policy[0].executed(1, size, A + B * size);
            }
        }
        for (int i = 0; i < 3; i++)
        {
            bench.submit();
            bench.now += GAP;
        }
        bench.now -= GAP;
        assertEquals(BatchPolicy.WAIT, policy[0].decide(bench.now, 1, bench.batch, bench.ended),
            "instance 1 has learnt that waiting pays");
        assertEquals(BatchPolicy.DISPATCH, policy[0].decide(bench.now, 0, bench.batch, bench.ended),
            "instance 0 has learnt nothing: it does not wait");
        assertEquals(3, bench.batch.batchSize());
    }
}
