package io.ingot.scheduler;

import io.ingot.time.NanoClock;

/**
 * Triton's sequence batcher with the Direct strategy (triton-next.md §1.3–§1.5, §1.7), as a pure policy: every
 * sequence holds one batch row ("slot") of one instance from its START to its END ({@link SequenceSlots}), so a
 * stateful model always sees a sequence's requests in the same row, one at a time and in order.
 *
 * <p>A slot's requests run only on its own instance, so an instance that has nothing queued while another has
 * answers {@link #YIELD} naming it. A batch holds rows 0 to the highest row with a queued request; each row with a
 * request gets that sequence's next request with READY (and its START/END), every other row — and a row whose request
 * cannot share the batch with the first one (shapes, optional inputs) — is a padding row with no control bit. With
 * both {@code max_queue_delay_microseconds} and {@code minimum_slot_utilization} set, a batch waits until the share
 * of rows with a request reaches the utilization or the oldest request has waited the delay.
 *
 * <p>Threads: the holder of the model's batching role only, as {@link BatchPolicy} says.
 */
public final class DirectSequencePolicy extends SequencePolicy
{
    private final SequenceSettings settings;

    /**
     * @param settings       the strategy's settings
     * @param shapeRules     the model's batching rules for shapes and optional inputs, or {@code null} when every
     *                       request may share a batch with every other
     * @param batchDimension whether the model's inputs have a batch dimension ({@code max_batch_size > 0})
     */
    public DirectSequencePolicy(final SequenceSettings settings, final SchedulerSettings shapeRules,
        final boolean batchDimension)
    {
        super(new SequenceSlots(settings.instances(), settings.slotsPerInstance(), settings.maxIdleNs()), shapeRules,
            batchDimension);
        this.settings = settings;
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        slots.keepHouse(nowNs, ended);
        final SequenceSlot[] rows = slots.of(instance);
        int ready = 0;
        int highest = -1;
        long oldestNs = Long.MAX_VALUE;
        for (final SequenceSlot slot : rows)
        {
            final PendingRequest head = slot.queue.peekFirst();
            if (head != null)
            {
                ready++;
                highest = slot.row;
                oldestNs = Math.min(oldestNs, head.acceptedNs);
            }
        }
        if (ready == 0)
        {
            return SequenceSlots.nothingHere(slots, instance, batch);
        }
        if (settings.maxQueueDelayNs() > 0 && settings.minSlotUtilization() > 0
            && (float) ready / rows.length < settings.minSlotUtilization())
        {
            final long dueNs = NanoClock.plus(oldestNs, settings.maxQueueDelayNs());
            if (nowNs < dueNs)
            {
                batch.waitUntil(dueNs);
                return WAIT;
            }
        }
        PendingRequest template = null;
        for (int row = 0; row <= highest; row++)
        {
            final SequenceSlot slot = rows[row];
            final PendingRequest head = slot.queue.peekFirst();
            if (head == null || template != null && !mayJoin(template, head))
            {
                batch.add(null, 0, row);
                continue;
            }
            template = template == null ? head : template;
            slots.take(slot);
            batch.add(head, SequenceControl.READY
                | head.sequenceFlags & (SequenceControl.START | SequenceControl.END), row);
        }
        return DISPATCH;
    }
}
