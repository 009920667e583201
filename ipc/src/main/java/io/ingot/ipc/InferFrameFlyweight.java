package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Flyweight over the fixed part of an INFER frame (record type {@link #TYPE} on a request ring; docs/ipc.md,
 * "INFER"). The model name and the id follow at {@link #stringsOffset()}, then {@code input_count}
 * {@link TensorEntryFlyweight tensor entries}, then {@code output_count} {@link OutputNameFlyweight output names}.
 *
 * <pre>
 *   0 int64 correlation_id   8 int64 model_version   16 int64 priority   24 int64 timeout_us
 *  32 uint16 model_name_length   34 uint16 id_length   36 uint16 input_count   38 uint16 output_count
 *  40 uint32 flags   44 uint16 sequence_id_length   46 reserved (uint16, 0)
 *  48 [only with FLAG_SEQUENCE] uint64 sequence_id
 *  48 or 56: model name, id, string sequence id (back to back, zero-padded together to a multiple of 8)
 * </pre>
 *
 * <p>Sequences (Triton's {@code sequence_id}/{@code sequence_start}/{@code sequence_end}) were added without
 * changing the layout version: a frame with {@code flags == 0} is byte for byte the frame of the first release
 * (bytes 44..47 were a reserved zero), so an older client keeps working against this server, and an older server
 * refuses a sequence frame with its "flags are not defined" error instead of misreading it. {@link #FLAG_SEQUENCE}
 * puts the request in a sequence and inserts the 8-byte numeric {@code sequence_id} (unsigned) before the strings;
 * a string correlation ID is sent instead as {@code sequence_id_length} bytes after the id, with
 * {@code sequence_id} 0. {@link #FLAG_SEQUENCE_START} and {@link #FLAG_SEQUENCE_END} need {@link #FLAG_SEQUENCE}.
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
    /** Offset of {@code sequence_id_length} (uint16): bytes of a string correlation ID, 0 for none. */
    public static final int SEQUENCE_ID_LENGTH_OFFSET = 44;
    /** Offset of the reserved uint16. */
    public static final int RESERVED_OFFSET = 46;
    /** Offset of the model name without {@link #FLAG_SEQUENCE}; of the numeric {@code sequence_id} with it. */
    public static final int STRINGS_OFFSET = 48;
    /** Offset of the numeric {@code sequence_id} (uint64), present only with {@link #FLAG_SEQUENCE}. */
    public static final int SEQUENCE_ID_OFFSET = 48;

    /** Flag: the request belongs to a sequence; {@code sequence_id} (8 bytes) precedes the strings. */
    public static final int FLAG_SEQUENCE = 1;
    /** Flag: the request starts its sequence (Triton's {@code sequence_start}); needs {@link #FLAG_SEQUENCE}. */
    public static final int FLAG_SEQUENCE_START = 1 << 1;
    /** Flag: the request ends its sequence (Triton's {@code sequence_end}); needs {@link #FLAG_SEQUENCE}. */
    public static final int FLAG_SEQUENCE_END = 1 << 2;
    /** Every flag this release defines; a frame with another bit set is refused. */
    public static final int DEFINED_FLAGS = FLAG_SEQUENCE | FLAG_SEQUENCE_START | FLAG_SEQUENCE_END;

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
     * Writes the flags and clears the reserved field. Write the flags before {@link #strings}: they say where the
     * strings go.
     *
     * @param flags the flags ({@link #DEFINED_FLAGS})
     * @return this
     */
    public InferFrameFlyweight flags(final int flags)
    {
        buffer.set(SharedMemory.INT, offset + FLAGS_OFFSET, flags);
        buffer.set(SharedMemory.SHORT, offset + RESERVED_OFFSET, (short)0);
        return this;
    }

    /** @return whether {@link #FLAG_SEQUENCE} is set, so that {@code sequence_id} precedes the strings. */
    public boolean inSequence()
    {
        return (flags() & FLAG_SEQUENCE) != 0;
    }

    /** @return the numeric correlation ID (unsigned; 0 with a string one); only with {@link #FLAG_SEQUENCE}. */
    public long sequenceId()
    {
        return buffer.get(SharedMemory.LONG, offset + SEQUENCE_ID_OFFSET);
    }

    /**
     * @param id the numeric correlation ID (unsigned), 0 when the ID is a string; needs {@link #FLAG_SEQUENCE}
     * @return this
     */
    public InferFrameFlyweight sequenceId(final long id)
    {
        buffer.set(SharedMemory.LONG, offset + SEQUENCE_ID_OFFSET, id);
        return this;
    }

    /** @return bytes of the string correlation ID, 0 for none. */
    public int sequenceIdLength()
    {
        return Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + SEQUENCE_ID_LENGTH_OFFSET));
    }

    /**
     * Writes the model name and the id, back to back and zero-padded, with no string correlation ID.
     *
     * @param modelName UTF-8 bytes of the model name
     * @param id        UTF-8 bytes of the id (may be empty)
     * @return this
     */
    public InferFrameFlyweight strings(final byte[] modelName, final byte[] id)
    {
        return strings(modelName, id, FrameText.NO_BYTES);
    }

    /**
     * Writes the model name, the id and the string correlation ID, back to back and zero-padded, after the flags
     * (which say whether {@code sequence_id} comes first).
     *
     * @param modelName  UTF-8 bytes of the model name
     * @param id         UTF-8 bytes of the id (may be empty)
     * @param sequenceId UTF-8 bytes of the string correlation ID (empty for none)
     * @return this
     */
    public InferFrameFlyweight strings(final byte[] modelName, final byte[] id, final byte[] sequenceId)
    {
        buffer.set(SharedMemory.SHORT, offset + MODEL_NAME_LENGTH_OFFSET, (short)modelName.length);
        buffer.set(SharedMemory.SHORT, offset + ID_LENGTH_OFFSET, (short)id.length);
        buffer.set(SharedMemory.SHORT, offset + SEQUENCE_ID_LENGTH_OFFSET, (short)sequenceId.length);
        long at = offset + stringsOffset();
        MemorySegment.copy(modelName, 0, buffer, ValueLayout.JAVA_BYTE, at, modelName.length);
        at += modelName.length;
        MemorySegment.copy(id, 0, buffer, ValueLayout.JAVA_BYTE, at, id.length);
        at += id.length;
        MemorySegment.copy(sequenceId, 0, buffer, ValueLayout.JAVA_BYTE, at, sequenceId.length);
        final int total = modelName.length + id.length + sequenceId.length;
        FrameText.zeroPadding(buffer, at + sequenceId.length, total);
        return this;
    }

    /** @return where the strings start, relative to the frame body: 48, or 56 with {@link #FLAG_SEQUENCE}. */
    public int stringsOffset()
    {
        return inSequence() ? STRINGS_OFFSET + Long.BYTES : STRINGS_OFFSET;
    }

    /** @return the offset of the model name in the wrapped memory. */
    public long modelNameOffset()
    {
        return offset + stringsOffset();
    }

    /** @return the offset of the id in the wrapped memory. */
    public long idOffset()
    {
        return modelNameOffset() + modelNameLength();
    }

    /** @return the offset of the string correlation ID in the wrapped memory. */
    public long sequenceIdOffset()
    {
        return idOffset() + idLength();
    }

    /** @return the offset of the first input entry in the wrapped memory. */
    public long firstInputOffset()
    {
        return offset + stringsOffset() + IpcLimits.align8(modelNameLength() + idLength() + sequenceIdLength());
    }

    /**
     * @param modelNameLength bytes of the model name
     * @param idLength        bytes of the id
     * @return bytes of the fixed part and the strings of a frame outside any sequence
     */
    public static int headerAndStringsLength(final int modelNameLength, final int idLength)
    {
        return STRINGS_OFFSET + IpcLimits.align8(modelNameLength + idLength);
    }

    /**
     * @param modelNameLength  bytes of the model name
     * @param idLength         bytes of the id
     * @param inSequence       whether {@link #FLAG_SEQUENCE} is set
     * @param sequenceIdLength bytes of the string correlation ID
     * @return bytes of the fixed part, the numeric correlation ID if any, and the strings
     */
    public static int headerAndStringsLength(final int modelNameLength, final int idLength,
        final boolean inSequence, final int sequenceIdLength)
    {
        return STRINGS_OFFSET + (inSequence ? Long.BYTES : 0)
            + IpcLimits.align8(modelNameLength + idLength + sequenceIdLength);
    }
}
