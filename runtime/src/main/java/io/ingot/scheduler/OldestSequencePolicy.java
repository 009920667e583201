package io.ingot.scheduler;

import io.ingot.time.NanoClock;

/**
 * Triton's sequence batcher with the Oldest strategy (triton-next.md §1.6), as a pure policy: each instance has
 * {@code max_candidate_sequences} slots ({@link SequenceSlots} routes sequences to them and keeps their time), and
 * its batches are formed from the next request of each of its candidate sequences, oldest first, as a dynamic
 * batcher forms them — so a batch never holds two requests of one sequence, and a sequence's next request waits for
 * its previous one's batch to finish (the instance asks again only when that batch is done). Rows carry READY and
 * each request's START/END; the model tells sequences apart by their CORRID, not by their row.
 *
 * <p>Batch size: {@code max_batch_size} when that many sequences have a request queued; else the largest
 * {@code preferred_batch_size} that many reach; else everything queued once the oldest request has waited
 * {@code max_queue_delay_microseconds} (at once when it is 0); until then the instance waits. A request whose shape
 * cannot share the batch with the oldest one waits for a later batch.
 *
 * <p>Threads: the holder of the model's batching role only, as {@link BatchPolicy} says.
 */
public final class OldestSequencePolicy extends SequencePolicy
{
    private final int maxBatch;
    private final int[] preferred;
    private final long delayNs;
    private final boolean[] chosen;

    /**
     * @param settings       the model's sequence settings (instances, idle limit)
     * @param candidates     {@code oldest.max_candidate_sequences} as normalized ({@code max(1, max_batch_size)}
     *                       when not positive)
     * @param preferred      {@code oldest.preferred_batch_size}, sorted ascending
     * @param delayNs        {@code oldest.max_queue_delay_microseconds} in nanoseconds
     * @param shapeRules     the model's batching rules for shapes and optional inputs, or {@code null}
     * @param batchDimension whether the model's inputs have a batch dimension
     */
    public OldestSequencePolicy(final SequenceSettings settings, final int candidates, final int[] preferred,
        final long delayNs, final SchedulerSettings shapeRules, final boolean batchDimension)
    {
        super(new SequenceSlots(settings.instances(), candidates, settings.maxIdleNs()), shapeRules, batchDimension);
        this.maxBatch = settings.slotsPerInstance();
        this.preferred = preferred.clone();
        this.delayNs = delayNs;
        this.chosen = new boolean[candidates];
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        slots.keepHouse(nowNs, ended);
        final SequenceSlot[] candidates = slots.of(instance);
        int waiting = 0;
        long oldestNs = Long.MAX_VALUE;
        for (final SequenceSlot slot : candidates)
        {
            final PendingRequest head = slot.queue.peekFirst();
            if (head != null)
            {
                waiting++;
                oldestNs = Math.min(oldestNs, head.acceptedNs);
            }
        }
        if (waiting == 0)
        {
            return SequenceSlots.nothingHere(slots, instance, batch);
        }
        final int size = batchSize(waiting, nowNs, oldestNs);
        if (size == 0)
        {
            batch.waitUntil(NanoClock.plus(oldestNs, delayNs));
            return WAIT;
        }
        java.util.Arrays.fill(chosen, false);
        PendingRequest first = null;
        for (int taken = 0; taken < size; taken++)
        {
            final SequenceSlot next = oldestUnchosen(candidates, first);
            if (next == null)
            {
                break;
            }
            chosen[next.row] = true;
            final PendingRequest head = slots.take(next);
            first = first == null ? head : first;
            batch.add(head, SequenceControl.READY
                | head.sequenceFlags & (SequenceControl.START | SequenceControl.END), next.row);
        }
        return DISPATCH;
    }

    /** @return how many requests to batch now, or 0 to wait for the queue delay */
    private int batchSize(final int waiting, final long nowNs, final long oldestNs)
    {
        if (waiting >= maxBatch)
        {
            return maxBatch;
        }
        for (int i = preferred.length - 1; i >= 0; i--)
        {
            if (preferred[i] <= waiting)
            {
                return preferred[i];
            }
        }
        return delayNs == 0 || nowNs - oldestNs >= delayNs ? waiting : 0;
    }

    /** @return the candidate with the oldest queued request not yet in the batch that may join it, or null */
    private SequenceSlot oldestUnchosen(final SequenceSlot[] candidates, final PendingRequest first)
    {
        SequenceSlot best = null;
        long bestNs = Long.MAX_VALUE;
        for (final SequenceSlot slot : candidates)
        {
            final PendingRequest head = slot.queue.peekFirst();
            if (head == null || chosen[slot.row] || head.acceptedNs >= bestNs)
            {
                continue;
            }
            if (first != null && !mayJoin(first, head))
            {
                continue;
            }
            best = slot;
            bestNs = head.acceptedNs;
        }
        return best;
    }
}
