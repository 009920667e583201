package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's dynamic batcher, decision by decision, against the pure policy with a clock the test moves by hand: no
 * threads, no sleeps, no timing — each case is the rows and rules of triton-scheduling.md §2.5 and §2.7–§2.14 (§2.11's
 * instances by the index of the one that asks, §2.12's delivery slots as the numbers dispatched requests get), with
 * the queue contents put in place first and the free instance asking afterwards, as Triton's batcher sees a queue
 * that grew while every instance was busy.
 */
class DynamicBatchPolicyTest
{
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    /** A policy under test with its clock, queues and what it ended. */
    private static final class Harness
    {
        final SchedulerSettings settings;
        final LevelAdmission admission;
        final BatchPolicy policy;
        final FormedBatch batch;
        final EndedRequests ended = new EndedRequests();
        final Arena arena = Arena.ofAuto();
        long now = 1_000 * MS;

        Harness(final String pbtxt)
        {
            final ModelConfig config = PolicyBench.normalized(pbtxt);
            settings = SchedulerSettings.of(config);
            admission = new LevelAdmission(settings);
            final BatchPolicy chosen = settings.dynamic()
                ? new DynamicBatchPolicy(settings, config.getMaxBatchSize() > 0, admission)
                : new DefaultSchedulingPolicy();
            // As the core builds it (ModelRuntime): preserve_ordering numbers what the chosen policy dispatches.
            policy = settings.preserveOrdering() ? new OrderedBatchPolicy(chosen) : chosen;
            batch = new FormedBatch(settings.maxBatchSize());
        }

        /** Accepts a request of batch size {@code bs} tagged {@code tag}, as the scheduler would. */
        PendingRequest submit(final int tag, final int bs)
        {
            return submit(tag, bs, 0, 0, 1);
        }

        PendingRequest submit(final int tag, final int bs, final long priority, final long timeoutMicros,
            final int width)
        {
            final InferenceRequest request = new InferenceRequest("m").id("r" + tag).priority(priority)
                .timeoutMicros(timeoutMicros)
                .addInput("INPUT0", DataType.INT32, new long[] {bs, width}, data(bs * width));
            return accept(request, bs);
        }

        PendingRequest accept(final InferenceRequest request, final int bs)
        {
            final PendingRequest pending = new PendingRequest();
            pending.request = request;
            pending.batchSize = bs;
            pending.ensureInputCapacity(2);
            pending.inputIndexByConfig[0] = 0;
            pending.inputIndexByConfig[1] = request.inputCount() > 1 ? 1 : -1;
            pending.presentInputs = request.inputCount() > 1 ? 3 : 1;
            pending.level = settings.levelOf(request.priority());
            pending.timeoutNs = settings.dynamic() ? settings.policyOf(pending.level).timeoutNs(request.timeoutMicros())
                : 0;
            pending.acceptedNs = now;
            if (!admission.tryAdmit(pending.level))
            {
                return null;
            }
            policy.enqueue(pending);
            return pending;
        }

        MemorySegment data(final int elements)
        {
            return arena.allocate(4L * Math.max(1, elements), 4);
        }

        /** The free instance asks (instance 0). */
        int decide()
        {
            return decide(0);
        }

        /** Instance {@code instance} is free and asks. */
        int decide(final int instance)
        {
            ended.clear();
            return policy.decide(now, instance, batch, ended);
        }

        /** A cancellation asked for a sweep: the role holder sweeps, then the free instance asks (instance 0). */
        int sweepAndDecide()
        {
            ended.clear();
            policy.sweep(now, ended);
            return policy.decide(now, 0, batch, ended);
        }

        /** @return the delivery sequences of the batch's requests, in order */
        List<Long> orderSequences()
        {
            final List<Long> sequences = new ArrayList<>();
            for (int i = 0; i < batch.count(); i++)
            {
                sequences.add(batch.get(i).orderSequence);
            }
            return sequences;
        }

        /** @return the ids of the batch's requests, in order */
        List<String> ids()
        {
            final List<String> ids = new ArrayList<>();
            for (int i = 0; i < batch.count(); i++)
            {
                ids.add(batch.get(i).request.id());
            }
            return ids;
        }

        /** Asks until the queue is empty, collecting the batch sizes. */
        List<Integer> drainBatchSizes()
        {
            final List<Integer> sizes = new ArrayList<>();
            while (decide() == BatchPolicy.DISPATCH)
            {
                sizes.add(batch.batchSize());
            }
            return sizes;
        }

        List<String> endedIds()
        {
            final List<String> ids = new ArrayList<>();
            for (int i = 0; i < ended.count(); i++)
            {
                ids.add(ended.request(i).request.id() + ":" + ended.ending(i));
            }
            return ids;
        }
    }

    private static final String INPUTS = " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }] ";

    /** §2.5: preferred_batch_size vs max_batch_size, with max_batch_size 8. */
    @Nested
    class PreferredAndMaxBatchSize
    {
        @Test
        void emptyDynamicBatchingSendsEverythingQueuedAsOneBatch()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching {}");
            for (int i = 1; i <= 5; i++)
            {
                h.submit(i, 1);
            }
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1", "r2", "r3", "r4", "r5"), h.ids());
            assertEquals(BatchPolicy.EMPTY, h.decide());
        }

        @Test
        void aPreferredSizeBeatsTheLargestPossibleEvenWithoutDelay()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4, 8] }");
            for (int i = 1; i <= 5; i++)
            {
                h.submit(i, 1);
            }
            assertEquals(List.of(4, 1), h.drainBatchSizes());
        }

        @Test
        void theLargestPreferredSizeReachedWins()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4, 8] }");
            for (int i = 1; i <= 9; i++)
            {
                h.submit(i, 1);
            }
            assertEquals(List.of(8, 1), h.drainBatchSizes());
        }

        @Test
        void waitsForTheQueueDelayMeasuredFromTheOldestRequestOrForTheFourthArrival()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 100000 }");
            h.submit(1, 1);
            h.now += 30 * MS;
            h.submit(2, 1);
            h.submit(3, 1);
            assertEquals(BatchPolicy.WAIT, h.decide());
            assertEquals(h.now + 70 * MS, h.batch.waitUntilNs(), "until the oldest is 100 ms old");
            h.now += 69 * MS;
            assertEquals(BatchPolicy.WAIT, h.decide());
            h.now += MS;
            assertEquals(BatchPolicy.DISPATCH, h.decide(), "the delay expired: send the 3");
            assertEquals(List.of("r1", "r2", "r3"), h.ids());

            h.submit(4, 1);
            h.submit(5, 1);
            h.submit(6, 1);
            assertEquals(BatchPolicy.WAIT, h.decide());
            h.now += 5 * MS;
            h.submit(7, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide(), "a fourth arrival completes the preferred size at once");
            assertEquals(List.of("r4", "r5", "r6", "r7"), h.ids());
        }

        @Test
        void onceTheDelayExpiredPreferredSizesAreIgnored()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 100000 }");
            for (int i = 1; i <= 6; i++)
            {
                h.submit(i, 1);
            }
            h.now += 100 * MS;
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(6, h.batch.batchSize(), "6: neither preferred nor capped at the largest preferred");
        }

        @Test
        void aRequestThatWouldPassTheLargestPreferredSizeSendsWhatIsPendingNow()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 100000 }");
            h.submit(1, 3);
            h.submit(2, 3);
            assertEquals(BatchPolicy.DISPATCH, h.decide(), "3 + 3 passes 4: the 3 go now, without waiting");
            assertEquals(List.of("r1"), h.ids());
        }

        @Test
        void aPreferredSizeIsReachedOnlyByAnExactCumulativeSumInArrivalOrder()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { preferred_batch_size: [4] }");
            h.submit(1, 3);
            h.submit(2, 3);
            h.submit(3, 3);
            assertEquals(List.of(3, 3, 3), h.drainBatchSizes(), "4 is never formed from 3s");
        }

        @Test
        void aRequestThatWouldPassMaxBatchSizeStopsTheScanWithoutBeingSplitOrSkipped()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching {}");
            h.submit(1, 5);
            h.submit(2, 4);
            h.submit(3, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1"), h.ids(), "r2 would make 9 > 8; r3 is not taken past it");
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r2", "r3"), h.ids());
        }
    }

    /** §2.7: strict priority levels, lowest number first, batches may span levels. */
    @Nested
    class PriorityLevels
    {
        private final String config = "max_batch_size: 8" + INPUTS
            + "dynamic_batching { priority_levels: 3 default_priority_level: 2 }";

        @Test
        void higherLevelsGoFirstAndOneBatchMaySpanLevels()
        {
            final Harness h = new Harness(config);
            h.submit(31, 1, 3, 0, 1);
            h.submit(21, 1, 2, 0, 1);
            h.submit(11, 1, 1, 0, 1);
            h.submit(32, 1, 3, 0, 1);
            h.submit(12, 1, 1, 0, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r11", "r12", "r21", "r31", "r32"), h.ids());
        }

        @Test
        void lowerLevelsWaitUntilHigherLevelsAreEmpty()
        {
            final Harness h = new Harness("max_batch_size: 2" + INPUTS
                + "dynamic_batching { priority_levels: 3 default_priority_level: 2 }");
            h.submit(30, 1, 3, 0, 1);
            h.submit(10, 1, 1, 0, 1);
            h.submit(20, 1, 2, 0, 1);
            h.submit(11, 1, 1, 0, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r10", "r11"), h.ids());
            h.submit(12, 1, 1, 0, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r12", "r20"), h.ids(), "a later level-1 arrival still goes ahead of level 2");
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r30"), h.ids());
        }

        @Test
        void zeroOutOfRangeAndUnsignedHugePrioritiesMapSilentlyToTheDefaultLevel()
        {
            final Harness h = new Harness(config);
            assertEquals(2, h.settings.levelOf(0));
            assertEquals(2, h.settings.levelOf(4));
            assertEquals(2, h.settings.levelOf(-1), "2^64-1 as Triton's uint64: out of range");
            assertEquals(1, h.settings.levelOf(1));
            assertEquals(3, h.settings.levelOf(3));
        }

        @Test
        void levelsBeyondLongMaxValueAreServedInUnsignedOrder()
        {
            // Values Triton's QA uses: priority_levels 2^64-1, default 4294967296.
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching { priority_levels: "
                + "18446744073709551615 default_priority_level: 4294967296 }");
            h.submit(1, 1, -1, 0, 1);                      // level 2^64-1: the lowest priority
            h.submit(2, 1, 0, 0, 1);                       // the default level
            h.submit(3, 1, 1, 0, 1);                       // level 1: the highest
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r3", "r2", "r1"), h.ids());
        }
    }

    /** §2.8 and §2.9: queue policies, timeouts, the delayed queue, queue limits. */
    @Nested
    class QueuePolicies
    {
        @Test
        void rejectAnswersAnExpiredRequestWithTimedOutAtTheNextDecision()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { default_queue_policy { timeout_action: REJECT "
                + "default_timeout_microseconds: 50000 } }");
            h.submit(1, 1);
            h.now += 50 * MS;
            assertEquals(BatchPolicy.DISPATCH, h.decide(), "not expired at the deadline itself: now > deadline");
            h.submit(2, 1);
            h.now += 50 * MS + 1;
            assertEquals(BatchPolicy.EMPTY, h.decide());
            assertEquals(List.of("r2:TIMED_OUT"), h.endedIds());
        }

        @Test
        void theSweepAnswersRejectTimeoutsWhileNoInstanceIsFreeAndSaysWhenTheNextExpires()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { default_queue_policy { timeout_action: REJECT "
                + "default_timeout_microseconds: 50000 } }");
            h.submit(1, 1);
            h.now += 10 * MS;
            h.submit(2, 1);
            final long firstDeadline = h.now - 10 * MS + 50 * MS;
            assertEquals(firstDeadline + 1, h.policy.sweep(h.now, h.ended), "the first instant r1 is expired");
            h.now = firstDeadline + 1;
            assertEquals(firstDeadline + 10 * MS + 1, h.policy.sweep(h.now, h.ended));
            assertEquals(List.of("r1:TIMED_OUT"), h.endedIds());
            assertEquals(1, h.policy.queuedRequests());
        }

        @Test
        void delayMovesAnExpiredRequestBehindTheUnexpiredOnesOfItsLevelButAheadOfLowerLevels()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { priority_levels: 2 default_priority_level: 1 "
                + "priority_queue_policy { key: 1 value { timeout_action: DELAY "
                + "default_timeout_microseconds: 1000 } } }");
            h.submit(1, 1, 1, 0, 1);
            h.now += 2 * MS;                               // r1 expires under DELAY
            h.submit(2, 1, 1, 0, 1);
            h.submit(3, 1, 1, 0, 1);
            h.submit(9, 1, 2, 0, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r2", "r3", "r1", "r9"), h.ids());
            assertTrue(h.ended.count() == 0, "DELAY never rejects");
        }

        @Test
        void aTimeoutOverrideCanOnlyShortenAndDoesNothingWhenTheDefaultIsZero()
        {
            final QueuePolicy shorten = QueuePolicy.of(TestModels.config("dynamic_batching { default_queue_policy {"
                + " default_timeout_microseconds: 1000 allow_timeout_override: true } }").getDynamicBatching()
                .getDefaultQueuePolicy());
            assertEquals(500 * US, shorten.timeoutNs(500));
            assertEquals(1000 * US, shorten.timeoutNs(5000), "longer: the default stays");
            assertEquals(1000 * US, shorten.timeoutNs(0), "none: the default stays");
            final QueuePolicy zero = QueuePolicy.of(TestModels.config("dynamic_batching { default_queue_policy {"
                + " allow_timeout_override: true } }").getDynamicBatching().getDefaultQueuePolicy());
            assertEquals(0, zero.timeoutNs(500), "a default of 0 ignores per-request timeouts");
        }

        @Test
        void maxQueueSizeIsPerLevelCountsDelayedRequestsAndIsFreedWhenRequestsLeaveTheQueue()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { priority_levels: 2 default_priority_level: 1 "
                + "default_queue_policy { max_queue_size: 2 } }");
            assertTrue(h.submit(1, 1, 1, 0, 1) != null);
            assertTrue(h.submit(2, 1, 1, 0, 1) != null);
            assertEquals(null, h.submit(3, 1, 1, 0, 1), "level 1 is full");
            assertTrue(h.submit(4, 1, 2, 0, 1) != null, "level 2 has its own limit");
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertTrue(h.submit(5, 1, 1, 0, 1) != null, "dispatching freed level 1");
        }
    }

    /** §2.10: shapes, ragged inputs, optional inputs. */
    @Nested
    class Shapes
    {
        private static final String VARIABLE = " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [-1] }] ";

        @Test
        void aDifferentShapeStopsTheScanAndIsNeverReordered()
        {
            final Harness h = new Harness("max_batch_size: 8" + VARIABLE + "dynamic_batching {}");
            h.submit(1, 1, 0, 0, 2);
            h.submit(2, 1, 0, 0, 2);
            h.submit(3, 1, 0, 0, 3);
            h.submit(4, 1, 0, 0, 2);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1", "r2"), h.ids());
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r3"), h.ids(), "r4 matches r1 but is not pulled ahead of r3");
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r4"), h.ids());
        }

        @Test
        void raggedInputsAreNotShapeChecked()
        {
            final Harness h = new Harness("max_batch_size: 8"
                + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [-1] allow_ragged_batch: true }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [-1] }] dynamic_batching {}");
            h.submit(1, 1, 0, 0, 2);
            h.submit(2, 1, 0, 0, 3);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1", "r2"), h.ids());
        }

        @Test
        void withAnOptionalInputEveryRequestOfABatchCarriesTheSameInputs()
        {
            final Harness h = new Harness("max_batch_size: 8"
                + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] },"
                + "        { name: 'INPUT1' data_type: TYPE_INT32 dims: [1] optional: true }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }] dynamic_batching {}");
            h.submit(1, 1);
            final InferenceRequest both = new InferenceRequest("m").id("r2")
                .addInput("INPUT0", DataType.INT32, new long[] {1, 1}, h.data(1))
                .addInput("INPUT1", DataType.INT32, new long[] {1, 1}, h.data(1));
            h.accept(both, 1);
            h.submit(3, 1);
            assertEquals(List.of(1, 1, 1), h.drainBatchSizes());
        }

        @Test
        void shapeTensorsMustMatchInContentToo()
        {
            final Harness h = new Harness("max_batch_size: 8"
                + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] is_shape_tensor: true }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }] dynamic_batching {}");
            final PendingRequest a = h.submit(1, 1);
            final PendingRequest b = h.submit(2, 1);
            final PendingRequest c = h.submit(3, 1);
            a.request.inputData(0).set(ValueLayout.JAVA_INT, 0, 7);
            b.request.inputData(0).set(ValueLayout.JAVA_INT, 0, 7);
            c.request.inputData(0).set(ValueLayout.JAVA_INT, 0, 8);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1", "r2"), h.ids());
        }
    }

    /** §2.11: several instances share one queue; the first free one takes its front. */
    @Nested
    class SeveralInstances
    {
        private static final String TWO = "max_batch_size: 2" + INPUTS
            + "instance_group [{ count: 2 kind: KIND_CPU }] dynamic_batching {}";

        @Test
        void whicheverInstanceIsFreeTakesTheFrontOfTheOneQueueFirstInFirstOut()
        {
            final Harness h = new Harness(TWO);
            for (int i = 1; i <= 5; i++)
            {
                h.submit(i, 1);
            }
            assertEquals(BatchPolicy.DISPATCH, h.decide(1));
            assertEquals(List.of("r1", "r2"), h.ids(), "instance 1 freed first: it takes the front");
            assertEquals(BatchPolicy.DISPATCH, h.decide(0));
            assertEquals(List.of("r3", "r4"), h.ids());
            assertEquals(BatchPolicy.DISPATCH, h.decide(1));
            assertEquals(List.of("r5"), h.ids());
            assertEquals(BatchPolicy.EMPTY, h.decide(0));
        }

        @Test
        void aFormedBatchIsSealedALaterArrivalGoesToTheNextFreeInstance()
        {
            final Harness h = new Harness(TWO);
            h.submit(1, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide(0));
            assertEquals(List.of("r1"), h.ids(), "no delay: what is queued goes at once");
            h.submit(2, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide(1));
            assertEquals(List.of("r2"), h.ids(), "r1's batch is executing: r2 is never appended to it");
        }

        @Test
        void withoutPrefetchWhatQueuedWhileEveryInstanceWasBusyFormsOneBatchAtDequeue()
        {
            // Triton forms payloads ahead only with a free slot, and merges aged non-saturated payloads when an
            // instance dequeues them; Ingot forms a batch only when an instance is free, from everything queued by
            // then: the batch Triton's merge-at-dequeue reaches, without a payload formed early.
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "instance_group [{ count: 2 kind: KIND_CPU }]"
                + " dynamic_batching { max_queue_delay_microseconds: 1000 }");
            h.submit(1, 1);
            h.now += 2 * MS;
            h.submit(2, 2);
            h.now += 2 * MS;
            h.submit(3, 1);
            h.now += MS;
            assertEquals(BatchPolicy.DISPATCH, h.decide(1));
            assertEquals(List.of("r1", "r2", "r3"), h.ids(), "every aged request in one batch, in arrival order");
            assertEquals(4, h.batch.batchSize());
        }
    }

    /** §2.12: preserve_ordering reserves each request's delivery slot when it is dequeued into a batch. */
    @Nested
    class PreserveOrdering
    {
        @Test
        void dispatchedRequestsAreNumberedInDequeueOrderAcrossInstances()
        {
            final Harness h = new Harness("max_batch_size: 2" + INPUTS + "instance_group [{ count: 2 kind: KIND_CPU }]"
                + " dynamic_batching { preserve_ordering: true }");
            for (int i = 1; i <= 5; i++)
            {
                h.submit(i, 1);
            }
            assertEquals(BatchPolicy.DISPATCH, h.decide(0));
            assertEquals(List.of(0L, 1L), h.orderSequences());
            assertEquals(BatchPolicy.DISPATCH, h.decide(1));
            assertEquals(List.of(2L, 3L), h.orderSequences(), "the second instance's batch comes after the first's");
            assertEquals(BatchPolicy.DISPATCH, h.decide(0));
            assertEquals(List.of(4L), h.orderSequences());
        }

        @Test
        void requestsEndedInTheQueueTakeNoSlotSoNothingWaitsForThem()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching { preserve_ordering: true"
                + " default_queue_policy { default_timeout_microseconds: 1000 } }");
            final PendingRequest cancelled = h.submit(1, 1);
            final PendingRequest expired = h.submit(2, 1);
            h.now += 2 * MS;
            h.submit(3, 1);
            cancelled.request.cancel();
            assertEquals(BatchPolicy.DISPATCH, h.sweepAndDecide());
            assertEquals(List.of("r3"), h.ids());
            assertEquals(List.of(0L), h.orderSequences(), "the first request dequeued into a batch takes slot 0");
            assertEquals(List.of("r1:CANCELLED", "r2:TIMED_OUT"), h.endedIds());
            assertEquals(PendingRequest.NO_ORDER, cancelled.orderSequence);
            assertEquals(PendingRequest.NO_ORDER, expired.orderSequence);
        }

        @Test
        void withoutPreserveOrderingNothingIsNumbered()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching {}");
            h.submit(1, 1);
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of(PendingRequest.NO_ORDER), h.orderSequences());
        }
    }

    /** §2.13 and §2.14: max_batch_size 0, the default scheduler, cancellation and stop. */
    @Nested
    class SchedulersAndEndings
    {
        @Test
        void maxBatchSizeZeroWithDynamicBatchingExecutesEveryRequestAlone()
        {
            final Harness h = new Harness("max_batch_size: 0 input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }] dynamic_batching {"
                + " max_queue_delay_microseconds: 100000 }");
            for (int i = 1; i <= 3; i++)
            {
                final InferenceRequest request = new InferenceRequest("m").id("r" + i)
                    .addInput("INPUT0", DataType.INT32, new long[] {1}, h.data(1));
                h.accept(request, 1);
            }
            assertEquals(List.of(1, 1, 1), h.drainBatchSizes(), "max_queue_delay has no effect");
        }

        @Test
        void theDefaultSchedulerRunsOneRequestPerBatchInArrivalOrderIgnoringPriorityAndTimeout()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS);
            assertFalse(h.settings.dynamic());
            h.submit(1, 2, 5, 10, 1);
            h.submit(2, 1, 1, 1, 1);
            h.now += 10 * MS;
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r1"), h.ids());
            assertEquals(BatchPolicy.DISPATCH, h.decide());
            assertEquals(List.of("r2"), h.ids(), "no timeout applies");
            assertEquals(BatchPolicy.EMPTY, h.decide());
        }

        @Test
        void aCancelledRequestIsAnsweredCancelledAndNeverBatched()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS + "dynamic_batching {}");
            h.submit(1, 1);
            final PendingRequest cancelled = h.submit(2, 1);
            h.submit(3, 1);
            cancelled.request.cancel();
            assertEquals(BatchPolicy.DISPATCH, h.sweepAndDecide());
            assertEquals(List.of("r1", "r3"), h.ids());
            assertEquals(List.of("r2:CANCELLED"), h.endedIds());
        }

        @Test
        void theSweepAnswersCancellationsWhileNoInstanceIsFree()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS);
            final PendingRequest first = h.submit(1, 1);
            h.submit(2, 1);
            first.request.cancel();
            assertEquals(BatchPolicy.NO_DEADLINE, h.policy.sweep(h.now, h.ended));
            assertEquals(List.of("r1:CANCELLED"), h.endedIds());
            assertEquals(1, h.policy.queuedRequests());
        }

        @Test
        void drainEndsEveryQueuedRequestWithStoppingAndFreesTheQueueLimits()
        {
            final Harness h = new Harness("max_batch_size: 8" + INPUTS
                + "dynamic_batching { priority_levels: 2 default_priority_level: 1 "
                + "default_queue_policy { max_queue_size: 2 } }");
            h.submit(1, 1, 1, 0, 1);
            h.submit(2, 1, 2, 0, 1);
            h.policy.drain(h.ended);
            assertEquals(List.of("r1:STOPPING", "r2:STOPPING"), h.endedIds());
            assertEquals(0, h.policy.queuedRequests());
            assertTrue(h.admission.tryAdmit(1) && h.admission.tryAdmit(1), "both slots of level 1 are free again");
        }
    }
}
