package io.ingot.ipc;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over the fixed part of a RESPONSE frame (record type {@link #TYPE} on a response ring; docs/ipc.md,
 * "RESPONSE"). The message follows at {@link #MESSAGE_OFFSET}, then {@code output_count}
 * {@link TensorEntryFlyweight tensor entries}.
 *
 * <pre>
 *   0 int64 correlation_id   8 int64 model_version   16 int32 status
 *  20 uint16 message_length  22 uint16 output_count  24 message, zero-padded to a multiple of 8
 * </pre>
 */
public final class ResponseFrameFlyweight
{
    /** Record type of RESPONSE frames. */
    public static final int TYPE = 1;

    /** Offset of {@code correlation_id} (int64). */
    public static final int CORRELATION_ID_OFFSET = 0;
    /** Offset of {@code model_version} (int64). */
    public static final int MODEL_VERSION_OFFSET = 8;
    /** Offset of {@code status} (int32). */
    public static final int STATUS_OFFSET = 16;
    /** Offset of {@code message_length} (uint16). */
    public static final int MESSAGE_LENGTH_OFFSET = 20;
    /** Offset of {@code output_count} (uint16). */
    public static final int OUTPUT_COUNT_OFFSET = 22;
    /** Offset of the message. */
    public static final int MESSAGE_OFFSET = 24;

    private MemorySegment buffer;
    private long offset;

    /**
     * @param buffer the memory holding the frame
     * @param offset the frame body's offset
     * @return this
     */
    public ResponseFrameFlyweight wrap(final MemorySegment buffer, final long offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return the request's correlation id. */
    public long correlationId()
    {
        return buffer.get(SharedMemory.LONG, offset + CORRELATION_ID_OFFSET);
    }

    /**
     * @param id the request's correlation id
     * @return this
     */
    public ResponseFrameFlyweight correlationId(final long id)
    {
        buffer.set(SharedMemory.LONG, offset + CORRELATION_ID_OFFSET, id);
        return this;
    }

    /** @return the version that answered, -1 if none. */
    public long modelVersion()
    {
        return buffer.get(SharedMemory.LONG, offset + MODEL_VERSION_OFFSET);
    }

    /**
     * @param version the version that answered
     * @return this
     */
    public ResponseFrameFlyweight modelVersion(final long version)
    {
        buffer.set(SharedMemory.LONG, offset + MODEL_VERSION_OFFSET, version);
        return this;
    }

    /** @return the status ({@link IpcStatus}). */
    public int status()
    {
        return buffer.get(SharedMemory.INT, offset + STATUS_OFFSET);
    }

    /**
     * @param status the status ({@link IpcStatus})
     * @return this
     */
    public ResponseFrameFlyweight status(final int status)
    {
        buffer.set(SharedMemory.INT, offset + STATUS_OFFSET, status);
        return this;
    }

    /** @return bytes of the message. */
    public int messageLength()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + MESSAGE_LENGTH_OFFSET));
    }

    /**
     * @param message UTF-8 bytes of the message, at most {@link IpcLimits#MAX_MESSAGE_LENGTH}
     * @return this
     */
    public ResponseFrameFlyweight message(final byte[] message)
    {
        buffer.set(SharedMemory.SHORT, offset + MESSAGE_LENGTH_OFFSET, (short)message.length);
        FrameText.put(buffer, offset + MESSAGE_OFFSET, message);
        return this;
    }

    /** @return the message. */
    public String message()
    {
        return FrameText.get(buffer, offset + MESSAGE_OFFSET, messageLength());
    }

    /** @return the number of outputs. */
    public int outputCount()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + OUTPUT_COUNT_OFFSET));
    }

    /**
     * @param count the number of outputs
     * @return this
     */
    public ResponseFrameFlyweight outputCount(final int count)
    {
        buffer.set(SharedMemory.SHORT, offset + OUTPUT_COUNT_OFFSET, (short)count);
        return this;
    }

    /** @return the offset of the first output entry in the wrapped memory (after the message). */
    public long firstOutputOffset()
    {
        return offset + MESSAGE_OFFSET + IpcLimits.align8(messageLength());
    }
}
