package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Triton's sequence batcher with the Oldest strategy (triton-next.md §1.6; core
 * {@code src/sequence_batch_scheduler/sequence_batch_scheduler.cc}, {@code OldestSequenceBatch}), decision by
 * decision with a hand-moved clock: batches take the next request of each candidate sequence, oldest first, never two
 * of one sequence, sized as a dynamic batcher sizes them.
 */
class OldestSequencePolicyTest
{
    private static final long MS = 1_000_000L;

    private final Arena arena = Arena.ofAuto();
    private final EndedRequests ended = new EndedRequests();
    private final FormedBatch batch = new FormedBatch(4);
    private long now = 1_000 * MS;

    private OldestSequencePolicy policy(final int candidates, final int[] preferred, final long delayUs)
    {
        return new OldestSequencePolicy(new SequenceSettings("dyna", 1, 4, 0, 0f, 10_000_000_000L), candidates,
            preferred, delayUs * 1_000L, null, true);
    }

    private void send(final OldestSequencePolicy policy, final long id, final int flags, final String tag)
    {
        final PendingRequest pending = new PendingRequest();
        pending.request = new InferenceRequest("dyna").id(tag)
            .addInput("INPUT", DataType.INT32, new long[] {1, 1}, arena.allocate(4, 4));
        pending.batchSize = 1;
        pending.correlationId = id;
        pending.sequenceFlags = flags;
        pending.acceptedNs = now;
        sent.add(pending);
        policy.enqueue(pending);
        now += 1_000;
    }

    private List<String> rows()
    {
        final List<String> rows = new ArrayList<>();
        for (int i = 0; i < batch.count(); i++)
        {
            rows.add(batch.get(i).request.id());
        }
        return rows;
    }

    private int decide(final OldestSequencePolicy policy)
    {
        ended.clear();
        return policy.decide(now, 0, batch, ended);
    }

    @Test
    void aBatchTakesOneRequestOfEachSequenceOldestFirst()
    {
        final OldestSequencePolicy policy = policy(8, new int[0], 0);
        send(policy, 2, SequenceControl.START, "b1");
        send(policy, 1, SequenceControl.START, "a1");
        send(policy, 2, 0, "b2");
        send(policy, 1, SequenceControl.END, "a2");
        send(policy, 3, SequenceControl.START | SequenceControl.END, "c1");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("b1", "a1", "c1"), rows());
        assertEquals(SequenceControl.READY | SequenceControl.START, batch.control(0));
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("b2", "a2"), rows());
        assertEquals(SequenceControl.READY | SequenceControl.END, batch.control(1));
        assertEquals(null, policy.slotHolder(0, 1), "sequence 1's slot is free once its END was batched");
    }

    @Test
    void theBatchIsAsLargeAsMaxBatchThenTheLargestPreferredSizeElseItWaitsForTheDelay()
    {
        final OldestSequencePolicy policy = policy(8, new int[] {2}, 500);
        send(policy, 1, SequenceControl.START, "a1");
        assertEquals(BatchPolicy.WAIT, decide(policy), "one sequence, below the preferred size, delay not over");
        send(policy, 2, SequenceControl.START, "b1");
        send(policy, 3, SequenceControl.START, "c1");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("a1", "b1"), rows(), "the largest preferred size three sequences reach");
        assertEquals(BatchPolicy.WAIT, decide(policy));
        now += MS;
        assertEquals(BatchPolicy.DISPATCH, decide(policy), "the oldest request waited the delay");
        assertEquals(List.of("c1"), rows());
        for (int id = 10; id < 15; id++)
        {
            send(policy, id, SequenceControl.START, "s" + id);
        }
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("s10", "s11", "s12", "s13"), rows(), "max_batch_size 4 caps the batch");
    }

    @Test
    void cancellingAQueuedRequestCancelsItsSequenceAndFreesTheCandidateSlot()
    {
        final OldestSequencePolicy policy = policy(1, new int[0], 0);
        send(policy, 1, SequenceControl.START, "a1");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        send(policy, 1, 0, "a2");
        send(policy, 1, 0, "a3");
        send(policy, 2, SequenceControl.START, "b1");
        cancel("a3");
        ended.clear();
        policy.sweep(now, ended);
        assertEquals(List.of("a2:CANCELLED", "a3:CANCELLED"), endedTags());
        assertEquals("2", policy.slotHolder(0, 0), "the backlogged sequence took the freed slot");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("b1"), rows());
    }

    private final List<PendingRequest> sent = new ArrayList<>();

    private void cancel(final String tag)
    {
        sent.stream().filter(p -> p.request.id().equals(tag)).findFirst().orElseThrow().request.cancel();
    }

    private List<String> endedTags()
    {
        final List<String> tags = new ArrayList<>();
        for (int i = 0; i < ended.count(); i++)
        {
            tags.add(ended.request(i).request.id() + ":" + ended.ending(i));
        }
        return tags;
    }

    @Test
    void sequencesBeyondTheCandidatesWaitInTheBacklog()
    {
        final OldestSequencePolicy policy = policy(2, new int[0], 0);
        send(policy, 1, SequenceControl.START, "a1");
        send(policy, 2, SequenceControl.START, "b1");
        send(policy, 3, SequenceControl.START | SequenceControl.END, "c1");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("a1", "b1"), rows());
        send(policy, 1, SequenceControl.END, "a2");
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("a2"), rows());
        assertEquals(BatchPolicy.DISPATCH, decide(policy));
        assertEquals(List.of("c1"), rows(), "sequence 3 took the slot sequence 1 freed");
    }
}
