package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Triton's sequence batcher with the Direct strategy, decision by decision, against the pure policy with a clock the
 * test moves by hand (no threads, no sleeps): routing to slots and backlogs, the rows and control bits of each batch,
 * the delay rule, and the releases (END, idle, cancellation, backlog timeout) of triton-next.md §1.3–§1.5 and §1.7,
 * which follow {@code SequenceBatchScheduler::Enqueue} and {@code DirectSequenceBatch::BatcherThread} in Triton's
 * core ({@code src/sequence_batch_scheduler/sequence_batch_scheduler.cc}).
 */
class DirectSequencePolicyTest
{
    private static final long MS = 1_000_000L;
    private static final int S = SequenceControl.START;
    private static final int E = SequenceControl.END;
    private static final int R = SequenceControl.READY;

    /** A policy, its clock and what it answered. */
    private static final class Harness
    {
        final DirectSequencePolicy policy;
        final FormedBatch batch;
        final EndedRequests ended = new EndedRequests();
        final Arena arena = Arena.ofAuto();
        final List<PendingRequest> sent = new ArrayList<>();
        long now = 1_000 * MS;

        Harness(final int instances, final int slots, final long delayUs, final float utilization,
            final long idleUs)
        {
            policy = new DirectSequencePolicy(new SequenceSettings("seq", instances, slots, delayUs * 1_000L,
                utilization, idleUs * 1_000L), null, true);
            batch = new FormedBatch(slots);
        }

        Harness(final int slots)
        {
            this(1, slots, 0, 0f, 1_000_000L);
        }

        /** A request of sequence {@code id} (numeric) with the given START/END bits, tagged for the assertions. */
        PendingRequest send(final long id, final int flags, final String tag)
        {
            return send(id, null, flags, tag, 0);
        }

        PendingRequest send(final long id, final String key, final int flags, final String tag, final long timeoutNs)
        {
            final InferenceRequest request = new InferenceRequest("seq").id(tag)
                .addInput("INPUT", DataType.INT32, new long[] {1, 1}, arena.allocate(4, 4));
            final PendingRequest pending = new PendingRequest();
            pending.request = request;
            pending.batchSize = 1;
            pending.correlationId = id;
            pending.correlationKey = key;
            pending.sequenceFlags = flags;
            pending.timeoutNs = timeoutNs;
            pending.acceptedNs = now;
            sent.add(pending);
            policy.enqueue(pending);
            return pending;
        }

        int decide(final int instance)
        {
            ended.clear();
            return policy.decide(now, instance, batch, ended);
        }

        /** @return the batch as "tag/bits" per row, "-" for a padding row */
        List<String> rows()
        {
            final List<String> rows = new ArrayList<>();
            for (int i = 0; i < batch.count(); i++)
            {
                final PendingRequest request = batch.get(i);
                final String tag = request == null ? "-" : request.request.id();
                rows.add(tag + bits(batch.control(i)));
            }
            return rows;
        }

        List<String> endedTags()
        {
            final List<String> tags = new ArrayList<>();
            for (int i = 0; i < ended.count(); i++)
            {
                tags.add(ended.request(i).request.id() + ":" + ended.ending(i));
            }
            return tags;
        }

        static String bits(final int control)
        {
            return (SequenceControl.has(control, S) ? "S" : "") + (SequenceControl.has(control, E) ? "E" : "")
                + (SequenceControl.has(control, R) ? "R" : "");
        }
    }

    @Test
    void rowZeroOfEveryInstanceFillsBeforeAnyRowOne()
    {
        final Harness h = new Harness(2, 2, 0, 0f, 1_000_000L);
        h.send(1, S, "a1");
        h.send(2, S, "b1");
        h.send(3, S, "c1");
        assertEquals("1", h.policy.slotHolder(0, 0));
        assertEquals("2", h.policy.slotHolder(1, 0));
        assertEquals("3", h.policy.slotHolder(0, 1));
        assertNull(h.policy.slotHolder(1, 1));
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a1SR", "c1SR"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(1));
        assertEquals(List.of("b1SR"), h.rows());
    }

    @Test
    void eachSequenceKeepsItsRowAndEmptyRowsBelowTheHighestArePadding()
    {
        final Harness h = new Harness(4);
        h.send(10, S, "a1");
        h.send(20, S, "b1");
        h.send(30, S, "c1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a1SR", "b1SR", "c1SR"), h.rows());
        // Only the third sequence sends next: rows 0 and 1 are padding with no control bit (READY false).
        h.send(30, 0, "c2");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("-", "-", "c2R"), h.rows());
        assertEquals(3, h.batch.batchSize());
        // Nothing to run, but three sequences hold slots: ask again when the first may be released as idle.
        assertEquals(BatchPolicy.WAIT, h.decide(0));
        assertEquals(h.now + 1_000_000L * 1_000L, h.batch.waitUntilNs());
    }

    @Test
    void aBatchHoldsOneRequestPerSequenceWithStartMiddleAndEndBits()
    {
        final Harness h = new Harness(2);
        h.send(7, S, "a1");
        h.send(7, 0, "a2");
        h.send(7, E, "a3");
        h.send(8, S | E, "b1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a1SR", "b1SER"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a2R"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a3ER"), h.rows());
        assertEquals(0, h.policy.queuedRequests());
        assertNull(h.policy.slotHolder(0, 0), "the slot is free once the END request is batched");
        assertNull(h.policy.slotHolder(0, 1));
    }

    @Test
    void aRequestWithoutStartForAnUnknownSequenceIsRefusedWithTritonsEnding()
    {
        final Harness h = new Harness(2);
        h.send(5, 0, "never-started");
        assertEquals(BatchPolicy.EMPTY, h.decide(0));
        assertEquals(List.of("never-started:SEQUENCE_NOT_STARTED"), h.endedTags());
        // After END the ID is forgotten at once: its reuse needs a new START.
        h.send(6, S | E, "one-shot");
        h.send(6, 0, "after-end");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("after-end:SEQUENCE_NOT_STARTED"), h.endedTags());
        assertEquals(List.of("one-shotSER"), h.rows());
        assertEquals(0, h.policy.queuedRequests());
    }

    @Test
    void numericAndStringIdsAreDifferentSequences()
    {
        final Harness h = new Harness(4);
        h.send(5, null, S, "n1", 0);
        h.send(0, "5", S, "s1", 0);
        h.send(0, "5", 0, "s2", 0);
        h.send(5, null, E, "n2", 0);
        assertEquals("5", h.policy.slotHolder(0, 0));
        assertEquals("5", h.policy.slotHolder(0, 1));
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("n1SR", "s1SR"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("n2ER", "s2R"), h.rows());
    }

    @Test
    void sequencesBeyondTheSlotsWaitInBacklogsThatTakeFreedSlotsInArrivalOrder()
    {
        final Harness h = new Harness(1);
        h.send(1, S, "a1");
        h.send(2, S, "b1");
        h.send(3, S, "c1");
        h.send(2, E, "b2");
        assertEquals(2, h.policy.backloggedSequences());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a1SR"), h.rows());
        h.send(1, E, "a2");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a2ER"), h.rows());
        // Sequence 1 ended: the oldest backlog (2) takes its slot, with its requests in order; 3 still waits.
        assertEquals("2", h.policy.slotHolder(0, 0));
        assertEquals(1, h.policy.backloggedSequences());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("b1SR"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("b2ER"), h.rows());
        assertEquals("3", h.policy.slotHolder(0, 0));
        h.send(3, E, "c2");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("c1SR"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("c2ER"), h.rows());
    }

    @Test
    void aBackloggedSequencePastItsTimeoutIsRefusedWholeWhileASlotHolderNeverTimesOut()
    {
        final Harness h = new Harness(1);
        h.send(1, null, S, "holder", 1 * MS);
        h.send(2, null, S, "waiting1", 0);
        h.send(2, null, 0, "waiting2", 5 * MS);
        assertEquals(h.now + 5 * MS, h.policy.sweep(h.now, h.ended));
        h.now += 6 * MS;
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals(List.of("waiting1:SEQUENCE_EXPIRED", "waiting2:SEQUENCE_EXPIRED"), h.endedTags());
        assertEquals(0, h.policy.backloggedSequences());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("holderSR"), h.rows(), "the slot holder's 1 ms timeout never applies");
        h.send(2, 0, "late");
        h.decide(0);
        assertEquals(List.of("late:SEQUENCE_NOT_STARTED"), h.endedTags());
    }

    @Test
    void anIdleSequenceLosesItsSlotAndItsNextRequestIsRefused()
    {
        final Harness h = new Harness(1, 1, 0, 0f, 2_000);
        h.send(1, S, "a1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        h.send(2, S, "b1");
        assertEquals(1, h.policy.backloggedSequences());
        assertEquals(h.now + 2 * MS, h.policy.sweep(h.now, h.ended), "the idle deadline of sequence 1");
        h.now += 2 * MS;
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals("2", h.policy.slotHolder(0, 0), "the reaped slot goes to the backlog");
        h.send(1, 0, "a2");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a2:SEQUENCE_NOT_STARTED"), h.endedTags());
        assertEquals(List.of("b1SR"), h.rows());
    }

    @Test
    void anIdleSequenceStillRunsWhatItQueuedBeforeItsSlotIsReleased()
    {
        final Harness h = new Harness(1, 1, 0, 0f, 2_000);
        h.send(1, S, "a1");
        h.send(1, 0, "a2");
        h.send(2, S, "b1");
        h.now += 3 * MS;
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a1SR"), h.rows());
        assertEquals("1", h.policy.slotHolder(0, 0));
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a2R"), h.rows());
        assertEquals("2", h.policy.slotHolder(0, 0));
    }

    @Test
    void theDelayRuleWaitsForUtilizationOrTheOldestRequestsDelay()
    {
        final Harness h = new Harness(1, 4, 1_000, 0.5f, 1_000_000L);
        h.send(1, S, "a1");
        assertEquals(BatchPolicy.WAIT, h.decide(0), "1 of 4 rows is below 0.5");
        assertEquals(h.now + MS, h.batch.waitUntilNs());
        h.now += 500_000;
        h.send(2, S, "b1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0), "2 of 4 rows reach 0.5");
        assertEquals(List.of("a1SR", "b1SR"), h.rows());
        h.send(2, 0, "b2");
        assertEquals(BatchPolicy.WAIT, h.decide(0));
        h.now += MS;
        assertEquals(BatchPolicy.DISPATCH, h.decide(0), "the oldest request waited the delay");
        assertEquals(List.of("-", "b2R"), h.rows());
    }

    @Test
    void withoutADelayOrWithoutAUtilizationABatchRunsAtOnce()
    {
        final Harness noDelay = new Harness(1, 4, 0, 0.9f, 1_000_000L);
        noDelay.send(1, S, "a1");
        assertEquals(BatchPolicy.DISPATCH, noDelay.decide(0));
        final Harness noUtilization = new Harness(1, 4, 1_000, 0f, 1_000_000L);
        noUtilization.send(1, S, "a1");
        assertEquals(BatchPolicy.DISPATCH, noUtilization.decide(0));
    }

    @Test
    void aCancelledRequestCancelsTheRestOfItsSequenceAndFreesTheSlot()
    {
        final Harness h = new Harness(1);
        h.send(1, S, "a1");
        h.send(1, 0, "a2");
        h.send(2, S, "b1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        final PendingRequest a3 = h.send(1, 0, "a3");
        // a2 is the head: cancel it; a3 goes with it.
        h.policy.sweep(h.now, h.ended);
        assertEquals(0, h.ended.count());
        findQueued(h, "a2").request.cancel();
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals(List.of("a2:CANCELLED", "a3:CANCELLED"), h.endedTags());
        assertEquals("2", h.policy.slotHolder(0, 0));
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("b1SR"), h.rows());
        assertEquals(0, h.policy.queuedRequests());
        assertEquals("a3", a3.request.id());
    }

    @Test
    void cancellingAnyQueuedRequestCancelsEveryQueuedRequestOfItsSequenceOnce()
    {
        // Triton's qa/L0_request_cancellation scheduler_test: cancelling any queued request cancels the sequence.
        final Harness h = new Harness(1);
        h.send(1, S, "a1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        h.send(1, 0, "a2");
        h.send(1, 0, "a3");
        h.send(2, S, "b1");
        findQueued(h, "a3").request.cancel();
        findQueued(h, "a3").request.cancel();
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals(List.of("a2:CANCELLED", "a3:CANCELLED"), h.endedTags(), "the request behind the head too");
        assertEquals("2", h.policy.slotHolder(0, 0), "the slot went to the backlogged sequence");

        // Cancelled twice, or its other request cancelled too: nothing is answered again.
        findQueued(h, "a2").request.cancel();
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals(List.of(), h.endedTags());
        // The sequence is forgotten, as Triton erases its correlation ID: a request without START is refused.
        h.send(1, 0, "a4");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("a4:SEQUENCE_NOT_STARTED"), h.endedTags());
        assertEquals(List.of("b1SR"), h.rows());
    }

    @Test
    void cancellingABackloggedRequestCancelsTheWholeBacklogAndLeavesTheSlotsAlone()
    {
        // scheduler_test.test_sequence_batch_scheduler_backlog_request_cancellation; core ReleaseSequenceSlot's
        // IsAnyRequestCancelled(backlog).
        final Harness h = new Harness(1);
        h.send(1, S, "a1");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        h.send(2, S, "b1");
        h.send(2, 0, "b2");
        h.send(3, S, "c1");
        assertEquals(2, h.policy.backloggedSequences());
        findQueued(h, "b2").request.cancel();
        h.ended.clear();
        h.policy.sweep(h.now, h.ended);
        assertEquals(List.of("b1:CANCELLED", "b2:CANCELLED"), h.endedTags());
        assertEquals(1, h.policy.backloggedSequences(), "the other backlog waits on");
        assertEquals("1", h.policy.slotHolder(0, 0), "the running sequence keeps its slot");
        assertEquals(1, h.policy.queuedRequests());
        h.send(2, 0, "b3");
        h.send(1, E, "a2");
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("b3:SEQUENCE_NOT_STARTED"), h.endedTags());
        assertEquals(List.of("a2ER"), h.rows());
        assertEquals(BatchPolicy.DISPATCH, h.decide(0));
        assertEquals(List.of("c1SR"), h.rows(), "the END freed the slot for the next backlog");
    }

    @Test
    void stoppingEndsEveryQueuedAndBackloggedRequest()
    {
        final Harness h = new Harness(1);
        h.send(1, S, "a1");
        h.send(2, S, "b1");
        h.send(9, 0, "refused");
        h.policy.drain(h.ended);
        assertEquals(List.of("refused:SEQUENCE_NOT_STARTED", "a1:STOPPING", "b1:STOPPING"), h.endedTags());
        assertEquals(0, h.policy.queuedRequests());
        assertNull(h.policy.slotHolder(0, 0));
    }

    /** @return the request sent with the tag */
    private static PendingRequest findQueued(final Harness h, final String tag)
    {
        for (final PendingRequest request : h.sent)
        {
            if (request.request.id().equals(tag))
            {
                return request;
            }
        }
        throw new AssertionError("no request " + tag);
    }
}
