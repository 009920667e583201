package io.ingot.scheduler;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Triton's sequence batcher with the Direct strategy (triton-next.md §1.3–§1.5, §1.7), as a pure policy: every
 * sequence holds one batch row ("slot") of one instance from its START to its END, so a stateful model always sees a
 * sequence's requests in the same row, one at a time and in order.
 *
 * <ul>
 *   <li><b>Routing</b> ({@link #enqueue}): a request goes to its sequence's slot, else to its sequence's backlog,
 *       else (it must carry START) to the free slot with the lowest row across instances — row 0 of every instance
 *       fills before any row 1 — else to a new backlog, served first-come first-served as slots free up. A request
 *       without START for an unknown sequence is refused with Triton's message. An END forgets the ID at once, so
 *       the ID needs a new START to be used again.</li>
 *   <li><b>Batches</b> ({@link #decide}): a slot's requests run only on its own instance, so an instance that has
 *       nothing queued while another has answers {@link #YIELD} naming it. A batch holds rows 0 to the highest row
 *       with a queued request; each row with a request gets that sequence's next request with READY (and its
 *       START/END), every other row — and a row whose request cannot share the batch with the first one (shapes,
 *       optional inputs) — is a padding row with no control bit.
 *       With both {@code max_queue_delay_microseconds} and {@code minimum_slot_utilization} set, a batch waits until
 *       the share of rows with a request reaches the utilization or the oldest request has waited the delay.</li>
 *   <li><b>Slots free up</b> once their sequence's END was batched, once a sequence idle for longer than
 *       {@code max_sequence_idle_microseconds} has run what it queued (its ID is forgotten at once: its next request
 *       without START is refused), or when its next request was cancelled (the rest of the sequence is cancelled
 *       with it). A backlog whose earliest queue timeout passed is refused as a whole.</li>
 * </ul>
 *
 * <p>Requests with a queue timeout that hold a slot are never timed out, as in Triton. Allocation: none per request;
 * a backlog is allocated per sequence that finds every slot taken.
 *
 * <p>Threads: the holder of the model's batching role only, as {@link BatchPolicy} says.
 */
public final class DirectSequencePolicy implements BatchPolicy
{
    private final SequenceSettings settings;
    private final BatchShapes shapes;
    private final SequenceSlot[][] slots;
    private final CorrelationMap<SequenceSlot> slotById = new CorrelationMap<>();
    private final CorrelationMap<SequenceBacklog> backlogById = new CorrelationMap<>();
    private final ArrayDeque<SequenceBacklog> backlogs = new ArrayDeque<>();
    private final EndedRequests refused = new EndedRequests();
    private int queued;

    /**
     * @param settings       the strategy's settings
     * @param shapeRules     the model's batching rules for shapes and optional inputs, or {@code null} when every
     *                       request may share a batch with every other
     * @param batchDimension whether the model's inputs have a batch dimension ({@code max_batch_size > 0})
     */
    public DirectSequencePolicy(final SequenceSettings settings, final SchedulerSettings shapeRules,
        final boolean batchDimension)
    {
        this.settings = settings;
        final BatchShapes rules = shapeRules == null ? null : new BatchShapes(shapeRules, batchDimension);
        this.shapes = rules != null && rules.anyCheck() ? rules : null;
        this.slots = new SequenceSlot[settings.instances()][settings.slotsPerInstance()];
        for (int instance = 0; instance < slots.length; instance++)
        {
            for (int row = 0; row < slots[instance].length; row++)
            {
                slots[instance][row] = new SequenceSlot(instance, row);
            }
        }
    }

    @Override
    public void enqueue(final PendingRequest request)
    {
        SequenceSlot slot = slotById.get(request);
        if (slot != null && idleDeadline(slot) <= request.acceptedNs)
        {
            // Idle past the limit before the reaper ran: the sequence is gone, as if the reaper had been on time.
            slot.mapped = false;
            slotById.remove(slot.id, slot.key, slot);
            slot = null;
        }
        final SequenceBacklog backlog = slot == null ? backlogById.get(request) : null;
        final boolean ends = SequenceControl.has(request.sequenceFlags, SequenceControl.END);
        if (slot != null)
        {
            slot.queue.addLast(request);
            slot.lastSeenNs = request.acceptedNs;
            if (ends)
            {
                slot.mapped = false;
                slotById.remove(slot.id, slot.key, slot);
            }
        }
        else if (backlog != null)
        {
            backlog.add(request);
            if (ends)
            {
                backlog.mapped = false;
                backlogById.remove(backlog.id, backlog.key, backlog);
            }
        }
        else if (!SequenceControl.has(request.sequenceFlags, SequenceControl.START))
        {
            refused.add(request, Ending.SEQUENCE_NOT_STARTED);
            return;
        }
        else
        {
            enqueueNewSequence(request, ends);
        }
        queued++;
    }

    private void enqueueNewSequence(final PendingRequest request, final boolean ends)
    {
        final SequenceSlot free = lowestFreeSlot();
        if (free != null)
        {
            free.take(request, request.acceptedNs);
            free.queue.addLast(request);
            if (ends)
            {
                free.mapped = false;
            }
            else
            {
                slotById.put(request, free);
            }
            return;
        }
        final SequenceBacklog backlog = new SequenceBacklog(request);
        backlog.add(request);
        backlogs.addLast(backlog);
        if (ends)
        {
            backlog.mapped = false;
        }
        else
        {
            backlogById.put(request, backlog);
        }
    }

    /** @return an instance with a queued request in one of its slots, or -1 */
    private int instanceWithWork()
    {
        for (final SequenceSlot[] instanceSlots : slots)
        {
            for (final SequenceSlot slot : instanceSlots)
            {
                if (!slot.queue.isEmpty())
                {
                    return slot.instance;
                }
            }
        }
        return -1;
    }

    /** Triton's free-slot heap: the lowest row first, and among equal rows the lowest instance. */
    private SequenceSlot lowestFreeSlot()
    {
        for (int row = 0; row < settings.slotsPerInstance(); row++)
        {
            for (final SequenceSlot[] instanceSlots : slots)
            {
                if (!instanceSlots[row].held)
                {
                    return instanceSlots[row];
                }
            }
        }
        return null;
    }

    @Override
    public int decide(final long nowNs, final int instance, final FormedBatch batch, final EndedRequests ended)
    {
        batch.clear();
        keepHouse(nowNs, ended);
        final SequenceSlot[] rows = slots[instance];
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
            final int other = instanceWithWork();
            if (other >= 0)
            {
                batch.yieldTo(other);
                return YIELD;
            }
            // Nothing to run anywhere; a held slot's idle limit or a backlog's timeout may still need keeping.
            final long next = nextDeadline();
            if (next == NO_DEADLINE)
            {
                return EMPTY;
            }
            batch.waitUntil(next);
            return WAIT;
        }
        if (settings.maxQueueDelayNs() > 0 && settings.minSlotUtilization() > 0
            && (float) ready / rows.length < settings.minSlotUtilization())
        {
            final long dueNs = oldestNs > Long.MAX_VALUE - settings.maxQueueDelayNs() ? Long.MAX_VALUE
                : oldestNs + settings.maxQueueDelayNs();
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
            if (head == null || template != null && shapes != null && !shapes.batchable(template, head))
            {
                batch.add(null, 0);
                continue;
            }
            template = template == null ? head : template;
            slot.queue.pollFirst();
            queued--;
            batch.add(head, SequenceControl.READY
                | head.sequenceFlags & (SequenceControl.START | SequenceControl.END));
            releaseIfDone(slot);
        }
        return DISPATCH;
    }

    @Override
    public long sweep(final long nowNs, final EndedRequests ended)
    {
        keepHouse(nowNs, ended);
        return nextDeadline();
    }

    /** @return the earliest idle limit of a held sequence or timeout of a backlog, or {@link #NO_DEADLINE} */
    private long nextDeadline()
    {
        long next = NO_DEADLINE;
        for (final SequenceSlot[] instanceSlots : slots)
        {
            for (final SequenceSlot slot : instanceSlots)
            {
                if (slot.held && slot.mapped)
                {
                    next = Math.min(next, idleDeadline(slot));
                }
            }
        }
        for (final SequenceBacklog backlog : backlogs)
        {
            next = Math.min(next, backlog.expiryNs);
        }
        return next;
    }

    /** Refusals, idle sequences, expired backlogs and cancelled requests, in that order. */
    private void keepHouse(final long nowNs, final EndedRequests ended)
    {
        for (int i = 0; i < refused.count(); i++)
        {
            ended.add(refused.request(i), refused.ending(i));
        }
        refused.clear();
        for (final SequenceSlot[] instanceSlots : slots)
        {
            for (final SequenceSlot slot : instanceSlots)
            {
                if (!slot.held)
                {
                    continue;
                }
                if (slot.mapped && idleDeadline(slot) <= nowNs)
                {
                    slot.mapped = false;
                    slotById.remove(slot.id, slot.key, slot);
                }
                final PendingRequest head = slot.queue.peekFirst();
                if (head != null && head.isCancelled())
                {
                    endAll(slot.queue, Ending.CANCELLED, ended);
                    slot.mapped = false;
                    slotById.remove(slot.id, slot.key, slot);
                }
                releaseIfDone(slot);
            }
        }
        for (final Iterator<SequenceBacklog> it = backlogs.iterator(); it.hasNext(); )
        {
            final SequenceBacklog backlog = it.next();
            if (backlog.expiryNs <= nowNs)
            {
                it.remove();
                backlogById.remove(backlog.id, backlog.key, backlog);
                endAll(backlog.queue, Ending.SEQUENCE_EXPIRED, ended);
            }
        }
    }

    private long idleDeadline(final SequenceSlot slot)
    {
        return slot.lastSeenNs > Long.MAX_VALUE - settings.maxIdleNs() ? Long.MAX_VALUE
            : slot.lastSeenNs + settings.maxIdleNs();
    }

    /** A slot whose sequence is forgotten (END, idle, cancelled) and has run everything it queued is free again. */
    private void releaseIfDone(final SequenceSlot slot)
    {
        if (slot.held && !slot.mapped && slot.queue.isEmpty())
        {
            slot.free();
            final SequenceBacklog next = backlogs.pollFirst();
            if (next != null)
            {
                moveIntoSlot(next, slot);
            }
        }
    }

    /** The oldest backlog takes a freed slot: its requests keep their order, its ID maps to the slot. */
    private void moveIntoSlot(final SequenceBacklog backlog, final SequenceSlot slot)
    {
        final PendingRequest first = backlog.queue.peekFirst();
        slot.take(first, first.acceptedNs);
        PendingRequest request;
        while ((request = backlog.queue.pollFirst()) != null)
        {
            slot.queue.addLast(request);
            slot.lastSeenNs = request.acceptedNs;
        }
        slot.mapped = backlog.mapped;
        if (backlog.mapped)
        {
            backlogById.remove(backlog.id, backlog.key, backlog);
            slotById.put(backlog.id, backlog.key, slot);
        }
    }

    private void endAll(final RequestDeque queue, final Ending ending, final EndedRequests ended)
    {
        PendingRequest request;
        while ((request = queue.pollFirst()) != null)
        {
            queued--;
            ended.add(request, ending);
        }
    }

    @Override
    public void drain(final EndedRequests ended)
    {
        for (int i = 0; i < refused.count(); i++)
        {
            ended.add(refused.request(i), refused.ending(i));
        }
        refused.clear();
        for (final SequenceSlot[] instanceSlots : slots)
        {
            for (final SequenceSlot slot : instanceSlots)
            {
                if (slot.held)
                {
                    endAll(slot.queue, Ending.STOPPING, ended);
                    slotById.remove(slot.id, slot.key, slot);
                    slot.free();
                }
            }
        }
        SequenceBacklog backlog;
        while ((backlog = backlogs.pollFirst()) != null)
        {
            backlogById.remove(backlog.id, backlog.key, backlog);
            endAll(backlog.queue, Ending.STOPPING, ended);
        }
    }

    @Override
    public int queuedRequests()
    {
        return queued;
    }

    /** @return true: idle sequences and backlog timeouts are deadlines of the policy's own */
    @Override
    public boolean keepsTime()
    {
        return true;
    }

    /**
     * @param instance an instance index
     * @param row      a row of its batches
     * @return the correlation ID of the sequence holding that slot as Triton prints it, or {@code null} when free
     */
    public String slotHolder(final int instance, final int row)
    {
        final SequenceSlot slot = slots[instance][row];
        return !slot.held ? null : slot.key != null ? slot.key : Long.toUnsignedString(slot.id);
    }

    /** @return the number of sequences waiting for a slot */
    public int backloggedSequences()
    {
        return backlogs.size();
    }
}
