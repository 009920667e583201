package io.ingot.scheduler;

/**
 * The control bits of one row of a sequence batch, as the sequence batcher fills Triton's control tensors
 * (triton-next.md §1.4): START on a sequence's first request, END on its last, READY on every row that holds a request
 * (padding rows carry none). A caller's request carries only START and END; the policy adds READY. Constants only.
 */
public final class SequenceControl
{
    /** The row's request starts its sequence (CONTROL_SEQUENCE_START). */
    public static final int START = 1;
    /** The row's request ends its sequence (CONTROL_SEQUENCE_END). */
    public static final int END = 2;
    /** The row holds a request; a padding row does not (CONTROL_SEQUENCE_READY). */
    public static final int READY = 4;

    private SequenceControl()
    {
    }

    /**
     * @param flags a row's or a request's control bits
     * @param bit   one of the constants
     * @return whether the bit is set
     */
    public static boolean has(final int flags, final int bit)
    {
        return (flags & bit) != 0;
    }
}
