package io.ingot.scheduler;

/**
 * One batch row of one instance that a sequence holds under the Direct strategy: the sequence's queued requests, its
 * ID, and when it was last heard from. Owned by the holder of the batching role; not thread-safe.
 */
final class SequenceSlot
{
    /** The instance whose batches this slot's row belongs to. */
    final int instance;
    /** The row of those batches. */
    final int row;
    /** The holding sequence's requests, in arrival order. */
    final RequestDeque queue = new RequestDeque();
    /** Whether a sequence holds the slot. */
    boolean held;
    /** Whether the holding sequence's ID still maps here (false once its END arrived or it was released as idle). */
    boolean mapped;
    /** The holding sequence's numeric ID (when {@link #key} is {@code null}). */
    long id;
    /** The holding sequence's string ID, or {@code null}. */
    String key;
    /** When the holding sequence's latest request arrived (the idle timer's start). */
    long lastSeenNs;

    SequenceSlot(final int instance, final int row)
    {
        this.instance = instance;
        this.row = row;
    }

    /**
     * A sequence takes the slot.
     *
     * @param first the sequence's first queued request, whose ID it carries
     * @param nowNs the time
     */
    void take(final PendingRequest first, final long nowNs)
    {
        held = true;
        mapped = true;
        id = first.correlationId;
        key = first.correlationKey;
        lastSeenNs = nowNs;
    }

    /** The sequence gives the slot up (its queue is empty or was ended). */
    void free()
    {
        held = false;
        mapped = false;
        id = 0;
        key = null;
    }
}
