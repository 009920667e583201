package io.ingot.scheduler;

/**
 * What both of Triton's sequence strategies do the same way, over their {@link SequenceSlots}: taking requests in,
 * keeping the sequences' time (idle limits, backlog timeouts), ending everything at a stop. A strategy adds only how
 * a free instance's batch is formed ({@link #decide}).
 *
 * <p>Threads: the holder of the model's batching role only, as {@link BatchPolicy} says.
 */
public abstract sealed class SequencePolicy implements BatchPolicy permits DirectSequencePolicy, OldestSequencePolicy
{
    /** The sequences' slots and backlogs. */
    final SequenceSlots slots;
    /** The shape and optional-input rules requests must meet to share a batch, or {@code null} when none apply. */
    private final BatchShapes shapes;

    /**
     * @param slots          the model's slots, sized for the strategy
     * @param shapeRules     the model's batching rules for shapes and optional inputs, or {@code null} when every
     *                       request may share a batch with every other
     * @param batchDimension whether the model's inputs have a batch dimension ({@code max_batch_size > 0})
     */
    SequencePolicy(final SequenceSlots slots, final SchedulerSettings shapeRules, final boolean batchDimension)
    {
        this.slots = slots;
        final BatchShapes rules = shapeRules == null ? null : new BatchShapes(shapeRules, batchDimension);
        this.shapes = rules != null && rules.anyCheck() ? rules : null;
    }

    /**
     * @param first     the batch's first request
     * @param candidate a later request
     * @return whether the candidate may share the first one's batch
     */
    final boolean mayJoin(final PendingRequest first, final PendingRequest candidate)
    {
        return shapes == null || shapes.batchable(first, candidate);
    }

    @Override
    public final void enqueue(final PendingRequest request)
    {
        slots.enqueue(request);
    }

    @Override
    public final long sweep(final long nowNs, final EndedRequests ended)
    {
        slots.keepHouse(nowNs, ended);
        return slots.nextDeadline();
    }

    @Override
    public final void drain(final EndedRequests ended)
    {
        slots.drain(ended);
    }

    @Override
    public final int queuedRequests()
    {
        return slots.queued();
    }

    /** @return true: idle sequences and backlog timeouts are deadlines of the policy's own */
    @Override
    public final boolean keepsTime()
    {
        return true;
    }

    /**
     * @param instance an instance index
     * @param slot     one of its slots
     * @return the correlation ID of the sequence holding it as Triton prints it, or {@code null} when free
     */
    public final String slotHolder(final int instance, final int slot)
    {
        return slots.slotHolder(instance, slot);
    }

    /** @return the number of sequences waiting for a slot */
    public final int backloggedSequences()
    {
        return slots.backloggedSequences();
    }
}
