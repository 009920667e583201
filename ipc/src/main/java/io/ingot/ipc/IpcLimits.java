package io.ingot.ipc;

/**
 * The fixed limits of IPC layout version 1 (docs/ipc.md, "Limits"). Frames that exceed them are refused; the
 * configurable limits live in {@link IpcLayout}.
 */
public final class IpcLimits
{
    /** Bytes of a model name, tensor name or output name (UTF-8). */
    public static final int MAX_NAME_LENGTH = 128;

    /** Bytes of a request id (UTF-8). */
    public static final int MAX_ID_LENGTH = 128;
    /** Longest string correlation ID of an INFER frame, in UTF-8 bytes. */
    public static final int MAX_SEQUENCE_ID_LENGTH = 128;

    /** Inputs of one request. */
    public static final int MAX_INPUTS = 32;

    /** Explicitly requested outputs of one request, and outputs of one response. */
    public static final int MAX_OUTPUTS = 32;

    /** Rank of a tensor. */
    public static final int MAX_RANK = 8;

    /** Bytes of the error message of a response (UTF-8). */
    public static final int MAX_MESSAGE_LENGTH = 1024;

    /** Entries of one RELEASE frame. */
    public static final int MAX_RELEASES = 64;

    /** Bytes of a request frame body. */
    public static final int MAX_REQUEST_FRAME_LENGTH = 16384;

    /** Bytes of a whole response record (header included): the reservation per in-flight request. */
    public static final int MAX_RESPONSE_RECORD_LENGTH = 8192;

    /** Alignment and granularity of tensor allocations in a slab. */
    public static final int TENSOR_ALIGNMENT = 64;

    /** Alignment of every area of the region. */
    public static final int PAGE_SIZE = 4096;

    /** Longest IPC name. */
    public static final int MAX_IPC_NAME_LENGTH = 64;

    private IpcLimits()
    {
    }

    /**
     * @param value a non-negative length
     * @return {@code value} rounded up to a multiple of 8
     */
    public static int align8(final int value)
    {
        return (value + 7) & ~7;
    }

    /**
     * @param value     a non-negative length
     * @param alignment a power of two
     * @return {@code value} rounded up to a multiple of {@code alignment}
     */
    public static long align(final long value, final long alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
