package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over the fixed part of an INFER frame (record type {@link #TYPE} on a request ring; docs/ipc.md,
 * "INFER"). The model name and the id follow at {@link #STRINGS_OFFSET}, then {@code input_count}
 * {@link TensorEntryFlyweight tensor entries}, then {@code output_count} {@link OutputNameFlyweight output names}.
 *
 * <pre>
 *   0 int64 correlation_id   8 int64 model_version   16 int64 priority   24 int64 timeout_us
 *  32 uint16 model_name_length   34 uint16 id_length   36 uint16 input_count   38 uint16 output_count
 *  40 uint32 flags   44 reserved
 *  48 model name, id (back to back, zero-padded together to a multiple of 8)
 * </pre>
 */
public final class InferFrameFlyweight
{
    /** Record type of INFER frames. */
    public static final int TYPE = 1;

    /** Offset of {@code correlation_id} (int64). */
    public static final int CORRELATION_ID_OFFSET = 0;
    /** Offset of {@code model_version} (int64). */
    public static final int MODEL_VERSION_OFFSET = 8;
    /** Offset of {@code priority} (int64). */
    public static final int PRIORITY_OFFSET = 16;
    /** Offset of {@code timeout_us} (int64). */
    public static final int TIMEOUT_OFFSET = 24;
    /** Offset of {@code model_name_length} (uint16). */
    public static final int MODEL_NAME_LENGTH_OFFSET = 32;
    /** Offset of {@code id_length} (uint16). */
    public static final int ID_LENGTH_OFFSET = 34;
    /** Offset of {@code input_count} (uint16). */
    public static final int INPUT_COUNT_OFFSET = 36;
    /** Offset of {@code output_count} (uint16). */
    public static final int OUTPUT_COUNT_OFFSET = 38;
    /** Offset of {@code flags} (uint32). */
    public static final int FLAGS_OFFSET = 40;
    /** Offset of the reserved int32. */
    public static final int RESERVED_OFFSET = 44;
    /** Offset of the model name, followed by the id. */
    public static final int STRINGS_OFFSET = 48;

    private MemorySegment buffer;
    private long offset;

    /**
     * @param buffer the memory holding the frame
     * @param offset the frame body's offset
     * @return this
     */
    public InferFrameFlyweight wrap(final MemorySegment buffer, final long offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** @return the client's correlation id. */
    public long correlationId()
    {
        return buffer.get(SharedMemory.LONG, offset + CORRELATION_ID_OFFSET);
    }

    /**
     * @param id the client's correlation id
     * @return this
     */
    public InferFrameFlyweight correlationId(final long id)
    {
        buffer.set(SharedMemory.LONG, offset + CORRELATION_ID_OFFSET, id);
        return this;
    }

    /** @return the model version, -1 for the default. */
    public long modelVersion()
    {
        return buffer.get(SharedMemory.LONG, offset + MODEL_VERSION_OFFSET);
    }

    /**
     * @param version the model version, -1 for the default
     * @return this
     */
    public InferFrameFlyweight modelVersion(final long version)
    {
        buffer.set(SharedMemory.LONG, offset + MODEL_VERSION_OFFSET, version);
        return this;
    }

    /** @return the priority, 0 for the model's default. */
    public long priority()
    {
        return buffer.get(SharedMemory.LONG, offset + PRIORITY_OFFSET);
    }

    /**
     * @param priority the priority level
     * @return this
     */
    public InferFrameFlyweight priority(final long priority)
    {
        buffer.set(SharedMemory.LONG, offset + PRIORITY_OFFSET, priority);
        return this;
    }

    /** @return the queue timeout in microseconds, 0 for none. */
    public long timeoutMicros()
    {
        return buffer.get(SharedMemory.LONG, offset + TIMEOUT_OFFSET);
    }

    /**
     * @param timeoutMicros the queue timeout in microseconds
     * @return this
     */
    public InferFrameFlyweight timeoutMicros(final long timeoutMicros)
    {
        buffer.set(SharedMemory.LONG, offset + TIMEOUT_OFFSET, timeoutMicros);
        return this;
    }

    /** @return bytes of the model name. */
    public int modelNameLength()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + MODEL_NAME_LENGTH_OFFSET));
    }

    /** @return bytes of the id. */
    public int idLength()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + ID_LENGTH_OFFSET));
    }

    /** @return the number of inputs. */
    public int inputCount()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + INPUT_COUNT_OFFSET));
    }

    /**
     * @param count the number of inputs
     * @return this
     */
    public InferFrameFlyweight inputCount(final int count)
    {
        buffer.set(SharedMemory.SHORT, offset + INPUT_COUNT_OFFSET, (short)count);
        return this;
    }

    /** @return the number of requested outputs, 0 for all. */
    public int outputCount()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + OUTPUT_COUNT_OFFSET));
    }

    /**
     * @param count the number of requested outputs
     * @return this
     */
    public InferFrameFlyweight outputCount(final int count)
    {
        buffer.set(SharedMemory.SHORT, offset + OUTPUT_COUNT_OFFSET, (short)count);
        return this;
    }

    /** @return the flags. */
    public int flags()
    {
        return buffer.get(SharedMemory.INT, offset + FLAGS_OFFSET);
    }

    /**
     * @param flags the flags (0: none are defined)
     * @return this
     */
    public InferFrameFlyweight flags(final int flags)
    {
        buffer.set(SharedMemory.INT, offset + FLAGS_OFFSET, flags);
        buffer.set(SharedMemory.INT, offset + RESERVED_OFFSET, 0);
        return this;
    }

    /**
     * Writes the model name and the id, back to back and zero-padded.
     *
     * @param modelName UTF-8 bytes of the model name
     * @param id        UTF-8 bytes of the id (may be empty)
     * @return this
     */
    public InferFrameFlyweight strings(final byte[] modelName, final byte[] id)
    {
        buffer.set(SharedMemory.SHORT, offset + MODEL_NAME_LENGTH_OFFSET, (short)modelName.length);
        buffer.set(SharedMemory.SHORT, offset + ID_LENGTH_OFFSET, (short)id.length);
        final long at = offset + STRINGS_OFFSET;
        MemorySegment.copy(modelName, 0, buffer, ValueLayout.JAVA_BYTE, at, modelName.length);
        MemorySegment.copy(id, 0, buffer, ValueLayout.JAVA_BYTE, at + modelName.length, id.length);
        FrameText.zeroPadding(buffer, at + modelName.length + id.length, modelName.length + id.length);
        return this;
    }

    /** @return the offset of the model name in the wrapped memory. */
    public long modelNameOffset()
    {
        return offset + STRINGS_OFFSET;
    }

    /** @return the offset of the id in the wrapped memory. */
    public long idOffset()
    {
        return offset + STRINGS_OFFSET + modelNameLength();
    }

    /** @return the offset of the first input entry in the wrapped memory. */
    public long firstInputOffset()
    {
        return offset + STRINGS_OFFSET + IpcLimits.align8(modelNameLength() + idLength());
    }

    /**
     * @param modelNameLength bytes of the model name
     * @param idLength        bytes of the id
     * @return bytes of the fixed part and the strings
     */
    public static int headerAndStringsLength(final int modelNameLength, final int idLength)
    {
        return STRINGS_OFFSET + IpcLimits.align8(modelNameLength + idLength);
    }
}
