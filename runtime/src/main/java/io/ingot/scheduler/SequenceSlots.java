package io.ingot.scheduler;

import io.ingot.time.NanoClock;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The routing and housekeeping both of Triton's sequence strategies share (triton-next.md §1.3, §1.7): every sequence
 * holds one slot of one instance from its START to its END, or waits in a backlog while every slot is taken.
 *
 * <ul>
 *   <li><b>Routing</b> ({@link #enqueue}): a request goes to its sequence's slot, else to its sequence's backlog,
 *       else (it must carry START) to the free slot with the lowest index across instances — slot 0 of every
 *       instance fills before any slot 1 — else to a new backlog, served first-come first-served as slots free up.
 *       A request without START for an unknown sequence is refused with Triton's message. An END forgets the ID at
 *       once, so the ID needs a new START to be used again.</li>
 *   <li><b>Slots free up</b> ({@link #keepHouse}, {@link #releaseIfDone}) once their sequence's END was batched,
 *       once a sequence idle for longer than {@code max_sequence_idle_microseconds} has run what it queued (its ID
 *       is forgotten at once: its next request without START is refused), or when any of its queued requests was
 *       cancelled: every queued request of the sequence is then answered CANCELLED and its ID forgotten, as Triton's
 *       sequence batcher does (a backlog with a cancelled request is cancelled as a whole). A backlog whose earliest
 *       queue timeout passed is refused as a whole; requests with a queue timeout that hold a slot are never timed
 *       out, as in Triton.</li>
 * </ul>
 *
 * <p>Allocation: none per request; a backlog per sequence that finds every slot taken. Threads: the holder of the
 * model's batching role only, like the policy that owns it.
 */
final class SequenceSlots
{
    private final SequenceSlot[][] slots;
    private final long maxIdleNs;
    private final CorrelationMap<SequenceSlot> slotById = new CorrelationMap<>();
    private final CorrelationMap<SequenceBacklog> backlogById = new CorrelationMap<>();
    private final ArrayDeque<SequenceBacklog> backlogs = new ArrayDeque<>();
    private final EndedRequests refused = new EndedRequests();
    private int queued;

    /**
     * @param instances        the model's instances
     * @param slotsPerInstance slots of each instance
     * @param maxIdleNs        how long a sequence may go without a request before it loses its slot
     */
    SequenceSlots(final int instances, final int slotsPerInstance, final long maxIdleNs)
    {
        this.maxIdleNs = maxIdleNs;
        this.slots = new SequenceSlot[instances][slotsPerInstance];
        for (int instance = 0; instance < instances; instance++)
        {
            for (int row = 0; row < slotsPerInstance; row++)
            {
                slots[instance][row] = new SequenceSlot(instance, row);
            }
        }
    }

    /**
     * @param instance an instance index
     * @return its slots, by index (shared, not a copy: the policy reads and polls their queues)
     */
    SequenceSlot[] of(final int instance)
    {
        return slots[instance];
    }

    /**
     * Takes the next request of a slot's sequence for a batch, and frees the slot if that was its END.
     *
     * @param slot a slot with a queued request
     * @return the request
     */
    PendingRequest take(final SequenceSlot slot)
    {
        final PendingRequest head = slot.queue.pollFirst();
        queued--;
        releaseIfDone(slot);
        return head;
    }

    /**
     * What a sequence policy answers when the asking instance has nothing queued: {@link BatchPolicy#YIELD} to an
     * instance that has, else {@link BatchPolicy#WAIT} until the next idle limit or backlog timeout, else
     * {@link BatchPolicy#EMPTY}.
     *
     * @param slots    the model's slots
     * @param instance the asking instance
     * @param batch    receives the instance to yield to or the time to ask again
     * @return the status
     */
    static int nothingHere(final SequenceSlots slots, final int instance, final FormedBatch batch)
    {
        final int other = slots.instanceWithWork();
        if (other >= 0 && other != instance)
        {
            batch.yieldTo(other);
            return BatchPolicy.YIELD;
        }
        final long next = slots.nextDeadline();
        if (next == BatchPolicy.NO_DEADLINE)
        {
            return BatchPolicy.EMPTY;
        }
        batch.waitUntil(next);
        return BatchPolicy.WAIT;
    }

    /** @return the requests queued in slots and backlogs */
    int queued()
    {
        return queued;
    }

    void enqueue(final PendingRequest request)
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
    int instanceWithWork()
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
        for (int row = 0; row < slots[0].length; row++)
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

    /** @return the earliest idle limit of a held sequence or backlog timeout, or {@link BatchPolicy#NO_DEADLINE} */
    long nextDeadline()
    {
        long next = BatchPolicy.NO_DEADLINE;
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
    void keepHouse(final long nowNs, final EndedRequests ended)
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
                if (anyCancelled(slot.queue))
                {
                    // Triton's sequence batcher: a cancelled request cancels its sequence, whose slot frees.
                    endAll(slot.queue, Ending.CANCELLED, ended);
                    if (slot.mapped)
                    {
                        slot.mapped = false;
                        slotById.remove(slot.id, slot.key, slot);
                    }
                }
                releaseIfDone(slot);
            }
        }
        for (final Iterator<SequenceBacklog> it = backlogs.iterator(); it.hasNext(); )
        {
            final SequenceBacklog backlog = it.next();
            final boolean cancelled = anyCancelled(backlog.queue);
            if (cancelled || backlog.expiryNs <= nowNs)
            {
                it.remove();
                if (backlog.mapped)
                {
                    backlogById.remove(backlog.id, backlog.key, backlog);
                }
                endAll(backlog.queue, cancelled ? Ending.CANCELLED : Ending.SEQUENCE_EXPIRED, ended);
            }
        }
    }

    /** @return whether the caller of any of these requests cancelled it (Triton's IsAnyRequestCancelled) */
    private static boolean anyCancelled(final RequestDeque queue)
    {
        for (int i = 0; i < queue.size(); i++)
        {
            if (queue.get(i).isCancelled())
            {
                return true;
            }
        }
        return false;
    }

    private long idleDeadline(final SequenceSlot slot)
    {
        return NanoClock.plus(slot.lastSeenNs, maxIdleNs);
    }

    /** A slot whose sequence is forgotten (END, idle, cancelled) and has run everything it queued is free again. */
    void releaseIfDone(final SequenceSlot slot)
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

    void drain(final EndedRequests ended)
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

    /**
     * @param instance an instance index
     * @param row      a row of its batches
     * @return the correlation ID of the sequence holding that slot as Triton prints it, or {@code null} when free
     */
    String slotHolder(final int instance, final int row)
    {
        final SequenceSlot slot = slots[instance][row];
        return !slot.held ? null : slot.key != null ? slot.key : Long.toUnsignedString(slot.id);
    }

    /** @return the number of sequences waiting for a slot */
    int backloggedSequences()
    {
        return backlogs.size();
    }
}
