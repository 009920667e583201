package io.ingot.ipc;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static io.ingot.ipc.IpcLimits.MAX_ID_LENGTH;
import static io.ingot.ipc.IpcLimits.MAX_INPUTS;
import static io.ingot.ipc.IpcLimits.MAX_NAME_LENGTH;
import static io.ingot.ipc.IpcLimits.MAX_OUTPUTS;
import static io.ingot.ipc.IpcLimits.MAX_RANK;
import static io.ingot.ipc.IpcLimits.MAX_SEQUENCE_ID_LENGTH;
import static io.ingot.ipc.IpcLimits.MAX_REQUEST_FRAME_LENGTH;

/**
 * Validates an INFER frame read from a client's request ring and exposes its fields (docs/ipc.md, "Validation").
 * Every field is checked before it is used: lengths and counts against the limits, each tensor entry against the
 * frame's end, datatypes, shapes against lengths (without overflow), BYTES encodings, and every tensor against the
 * client's own slab (in its input area, never in the output area the server writes). One decoder per reading thread;
 * it allocates nothing for a valid frame, and its results are valid until the next {@link #decode}.
 */
public final class InferFrameDecoder
{
    /** {@link #decode} result when the frame is too short to hold even a correlation id: drop it. */
    public static final int DROPPED = -1;

    private final InferFrameFlyweight frame = new InferFrameFlyweight();
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();
    private final OutputNameFlyweight outputEntry = new OutputNameFlyweight();

    private MemorySegment buffer;
    private long correlationId;
    private long modelVersion;
    private long priority;
    private long timeoutMicros;
    private long modelNameOffset;
    private int modelNameLength;
    private long idOffset;
    private int idLength;
    private int flags;
    private long sequenceId;
    private long sequenceIdOffset;
    private int sequenceIdLength;

    private int inputCount;
    private final long[] inputNameOffsets = new long[MAX_INPUTS];
    private final int[] inputNameLengths = new int[MAX_INPUTS];
    private final IpcDataType[] inputTypes = new IpcDataType[MAX_INPUTS];
    private final long[][] inputShapes = new long[MAX_INPUTS][MAX_RANK];
    private final int[] inputRanks = new int[MAX_INPUTS];
    private final long[] inputOffsets = new long[MAX_INPUTS];
    private final long[] inputLengths = new long[MAX_INPUTS];
    private final long[][] shapeScratch = new long[MAX_RANK + 1][];

    private int outputCount;
    private final long[] outputNameOffsets = new long[MAX_OUTPUTS];
    private final int[] outputNameLengths = new int[MAX_OUTPUTS];

    private String error;

    /** Creates a decoder. */
    public InferFrameDecoder()
    {
        for (int rank = 0; rank <= MAX_RANK; rank++)
        {
            shapeScratch[rank] = new long[rank];
        }
    }

    /**
     * Validates one frame.
     *
     * @param buffer    the memory holding the frame (the ring)
     * @param offset    the frame body's offset
     * @param length    the frame body's length
     * @param region    the whole region mapping, where the tensors are
     * @param slabStart       file offset of the client's slab (the start of its input area)
     * @param outputAreaStart file offset of the client's output area, where the server allocates outputs: an input
     *                        must end at or before it, or the server's outputs could overwrite it before it is read
     * @param slabEnd         file offset just after the client's slab
     * @return {@link IpcStatus#OK}, {@link IpcStatus#INVALID_ARG} (see {@link #error()}; {@link #correlationId()}
     *     is valid), or {@link #DROPPED}
     */
    public int decode(final MemorySegment buffer, final long offset, final int length, final MemorySegment region,
        final long slabStart, final long outputAreaStart, final long slabEnd)
    {
        this.buffer = buffer;
        error = null;
        inputCount = 0;
        outputCount = 0;
        correlationId = 0;
        flags = 0;
        sequenceId = 0;
        sequenceIdLength = 0;
        if (length < Long.BYTES)
        {
            return fail(DROPPED, "INFER frame of " + length + " bytes is too short to hold a correlation id");
        }
        frame.wrap(buffer, offset);
        correlationId = frame.correlationId();
        if (length < InferFrameFlyweight.STRINGS_OFFSET)
        {
            return invalid("INFER frame of " + length + " bytes is shorter than its "
                + InferFrameFlyweight.STRINGS_OFFSET + "-byte fixed part");
        }
        if (length > MAX_REQUEST_FRAME_LENGTH)
        {
            return invalid("INFER frame of " + length + " bytes exceeds the limit of " + MAX_REQUEST_FRAME_LENGTH);
        }
        modelVersion = frame.modelVersion();
        priority = frame.priority();
        timeoutMicros = frame.timeoutMicros();
        modelNameLength = frame.modelNameLength();
        idLength = frame.idLength();
        final int inputs = frame.inputCount();
        final int outputs = frame.outputCount();
        if (modelVersion < -1)
        {
            return invalid("model_version " + modelVersion + " is invalid: use -1 for the default or a version >= 0");
        }
        if (priority < 0)
        {
            return invalid("priority " + priority + " is negative; use 0 for the model's default level");
        }
        if (timeoutMicros < 0)
        {
            return invalid("timeout_us " + timeoutMicros + " is negative; use 0 for none");
        }
        final String flagProblem = checkSequence(length);
        if (flagProblem != null)
        {
            return invalid(flagProblem);
        }
        if (modelNameLength < 1 || modelNameLength > MAX_NAME_LENGTH)
        {
            return invalid("model_name_length " + modelNameLength + " must be 1.." + MAX_NAME_LENGTH);
        }
        if (idLength > MAX_ID_LENGTH)
        {
            return invalid("id_length " + idLength + " must be 0.." + MAX_ID_LENGTH);
        }
        if (inputs > MAX_INPUTS)
        {
            return invalid("input_count " + inputs + " exceeds the limit of " + MAX_INPUTS);
        }
        if (outputs > MAX_OUTPUTS)
        {
            return invalid("output_count " + outputs + " exceeds the limit of " + MAX_OUTPUTS);
        }
        final long end = offset + length;
        long cursor = offset + InferFrameFlyweight.headerAndStringsLength(modelNameLength, idLength,
            (flags & InferFrameFlyweight.FLAG_SEQUENCE) != 0, sequenceIdLength);
        if (cursor > end)
        {
            return invalid("INFER frame of " + length + " bytes ends inside its model name and id"
                + (sequenceIdLength > 0 ? " and sequence id (" : " (") + (cursor - offset) + " bytes needed)");
        }
        modelNameOffset = frame.modelNameOffset();
        idOffset = modelNameOffset + modelNameLength;
        sequenceIdOffset = idOffset + idLength;

        for (int i = 0; i < inputs; i++)
        {
            if (cursor + TensorEntryFlyweight.DIMS_OFFSET > end)
            {
                return invalid("INFER frame ends inside input " + i + " of " + inputs);
            }
            entry.wrap(buffer, cursor);
            final int nameLength = entry.nameLength();
            final int rank = entry.rank();
            if (nameLength < 1 || nameLength > MAX_NAME_LENGTH)
            {
                return invalid("input " + i + ": name_length " + nameLength + " must be 1.." + MAX_NAME_LENGTH);
            }
            if (rank > MAX_RANK)
            {
                return invalid("input " + i + ": rank " + rank + " exceeds the limit of " + MAX_RANK);
            }
            final int entryLength = TensorEntryFlyweight.encodedLength(rank, nameLength);
            if (cursor + entryLength > end)
            {
                return invalid("INFER frame ends inside input " + i + " of " + inputs + " (entry of " + entryLength
                    + " bytes)");
            }
            inputNameOffsets[i] = entry.nameOffset();
            inputNameLengths[i] = nameLength;
            inputCount = i + 1;
            final String status = checkTensor(i, rank, region, slabStart, outputAreaStart, slabEnd);
            if (status != null)
            {
                return invalid(status);
            }
            cursor += entryLength;
        }
        for (int i = 0; i < outputs; i++)
        {
            if (cursor + OutputNameFlyweight.NAME_OFFSET > end)
            {
                return invalid("INFER frame ends inside requested output " + i + " of " + outputs);
            }
            outputEntry.wrap(buffer, cursor);
            final int nameLength = outputEntry.nameLength();
            if (nameLength < 1 || nameLength > MAX_NAME_LENGTH)
            {
                return invalid("requested output " + i + ": name_length " + nameLength + " must be 1.."
                    + MAX_NAME_LENGTH);
            }
            final int entryLength = OutputNameFlyweight.encodedLength(nameLength);
            if (cursor + entryLength > end)
            {
                return invalid("INFER frame ends inside requested output " + i + " of " + outputs);
            }
            outputNameOffsets[i] = outputEntry.nameOffset();
            outputNameLengths[i] = nameLength;
            outputCount = i + 1;
            cursor += entryLength;
        }
        if (cursor != end)
        {
            return invalid("INFER frame is " + length + " bytes but its contents end after " + (cursor - offset)
                + " bytes");
        }
        return IpcStatus.OK;
    }

    /** Checks the flags and the sequence fields; reads them. @return the problem, or {@code null} */
    private String checkSequence(final int length)
    {
        flags = frame.flags();
        final int undefined = flags & ~InferFrameFlyweight.DEFINED_FLAGS;
        if (undefined != 0)
        {
            return "flags 0x" + Integer.toHexString(flags) + " set undefined bits 0x" + Integer.toHexString(undefined)
                + "; the defined flags are 0x1 (in a sequence), 0x2 (sequence start) and 0x4 (sequence end)";
        }
        sequenceIdLength = frame.sequenceIdLength();
        if ((flags & InferFrameFlyweight.FLAG_SEQUENCE) == 0)
        {
            if (flags != 0 || sequenceIdLength != 0)
            {
                return "flags 0x" + Integer.toHexString(flags) + " with sequence_id_length " + sequenceIdLength
                    + ": a sequence start, end or string sequence id needs the sequence flag 0x1";
            }
            return null;
        }
        if (length < InferFrameFlyweight.SEQUENCE_ID_OFFSET + Long.BYTES)
        {
            return "INFER frame of " + length + " bytes has the sequence flag but ends before its 8-byte sequence_id";
        }
        sequenceId = frame.sequenceId();
        if (sequenceIdLength > MAX_SEQUENCE_ID_LENGTH)
        {
            return "sequence_id_length " + sequenceIdLength + " must be 0.." + MAX_SEQUENCE_ID_LENGTH;
        }
        if (sequenceIdLength > 0 && sequenceId != 0)
        {
            return "the sequence has both the numeric sequence_id " + Long.toUnsignedString(sequenceId)
                + " and a string sequence id of " + sequenceIdLength + " bytes; send one (sequence_id 0 with a"
                + " string)";
        }
        return null;
    }

    private String checkTensor(final int i, final int rank, final MemorySegment region, final long slabStart,
        final long outputAreaStart, final long slabEnd)
    {
        final int code = entry.dataType();
        final IpcDataType type = IpcDataType.fromCode(code);
        if (type == null)
        {
            return "input '" + inputName(i) + "': datatype code " + code + " is not a datatype (1..14, Triton's "
                + "TYPE_* numbers)";
        }
        final long tensorOffset = entry.tensorOffset();
        final long tensorLength = entry.length();
        final long[] shape = inputShapes[i];
        long elements = 1;
        boolean overflow = false;
        for (int d = 0; d < rank; d++)
        {
            final long dim = entry.dim(d);
            shape[d] = dim;
            if (dim < 0)
            {
                return "input '" + inputName(i) + "': dimension " + d + " is " + dim + "; dimensions must be >= 0";
            }
            if (elements != 0 && dim > Long.MAX_VALUE / elements)
            {
                overflow = true;
            }
            elements = overflow ? Long.MAX_VALUE : elements * dim;
        }
        inputTypes[i] = type;
        inputRanks[i] = rank;
        inputOffsets[i] = tensorOffset;
        inputLengths[i] = tensorLength;
        if (tensorLength < 0)
        {
            return "input '" + inputName(i) + "': length " + tensorLength + " is negative";
        }
        if (tensorOffset < slabStart || tensorOffset > slabEnd || tensorLength > slabEnd - tensorOffset)
        {
            return "input '" + inputName(i) + "': bytes [" + tensorOffset + ", " + tensorOffset + " + "
                + tensorLength + ") lie outside this client's slab [" + slabStart + ", " + slabEnd + ")";
        }
        if (tensorLength > 0 && tensorLength > outputAreaStart - tensorOffset)
        {
            // The server allocates the outputs of this client's requests there: they could overwrite the input
            // before the model reads it, and the client would get a wrong answer with status OK.
            return "input '" + inputName(i) + "': bytes [" + tensorOffset + ", " + tensorOffset + " + "
                + tensorLength + ") reach into this client's output area [" + outputAreaStart + ", " + slabEnd
                + "), where the server writes outputs; place inputs in the input area [" + slabStart + ", "
                + outputAreaStart + ")";
        }
        if (overflow)
        {
            return "input '" + inputName(i) + "': shape " + shapeText(shape, rank) + " has more elements than a "
                + "tensor can hold";
        }
        if (type.byteSize() > 0)
        {
            if (elements > tensorLength / type.byteSize() || elements * type.byteSize() != tensorLength)
            {
                return "input '" + inputName(i) + "': shape " + shapeText(shape, rank) + " of " + type + " needs "
                    + (elements > Long.MAX_VALUE / type.byteSize() ? "more than " + Long.MAX_VALUE
                        : Long.toString(elements * type.byteSize())) + " bytes, but its length is " + tensorLength;
            }
            return null;
        }
        return checkBytesEncoding(i, shape, rank, elements, region, tensorOffset, tensorLength);
    }

    private String checkBytesEncoding(final int i, final long[] shape, final int rank, final long elements,
        final MemorySegment region, final long tensorOffset, final long tensorLength)
    {
        if (elements > tensorLength / Integer.BYTES)
        {
            return "input '" + inputName(i) + "': BYTES shape " + shapeText(shape, rank) + " has " + elements
                + " elements, which need at least " + elements + " x 4 bytes of length prefixes; its length is "
                + tensorLength;
        }
        long position = 0;
        for (long element = 0; element < elements; element++)
        {
            if (position > tensorLength - Integer.BYTES)
            {
                return "input '" + inputName(i) + "': BYTES element " + element + " of " + elements + " starts at "
                    + "byte " + position + ", leaving no room for its 4-byte length in a tensor of " + tensorLength
                    + " bytes";
            }
            final long size = Integer.toUnsignedLong(region.get(SharedMemory.INT, tensorOffset + position));
            position += Integer.BYTES;
            if (size > tensorLength - position)
            {
                return "input '" + inputName(i) + "': BYTES element " + element + " claims " + size + " bytes, but "
                    + (tensorLength - position) + " bytes of the tensor remain";
            }
            position += size;
        }
        if (position != tensorLength)
        {
            return "input '" + inputName(i) + "': its " + elements + " BYTES elements take " + position
                + " bytes, but its length is " + tensorLength;
        }
        return null;
    }

    private int invalid(final String message)
    {
        return fail(IpcStatus.INVALID_ARG, message);
    }

    private int fail(final int status, final String message)
    {
        error = message;
        return status;
    }

    private static String shapeText(final long[] shape, final int rank)
    {
        return Arrays.toString(Arrays.copyOf(shape, rank));
    }

    /** @return the reason the last frame was refused, or {@code null}. */
    public String error()
    {
        return error;
    }

    /** @return the frame's correlation id (valid unless {@link #DROPPED}). */
    public long correlationId()
    {
        return correlationId;
    }

    /** @return the requested model version, -1 for the default. */
    public long modelVersion()
    {
        return modelVersion;
    }

    /** @return the priority. */
    public long priority()
    {
        return priority;
    }

    /** @return the queue timeout in microseconds. */
    public long timeoutMicros()
    {
        return timeoutMicros;
    }

    /** @return whether the request belongs to a sequence ({@link InferFrameFlyweight#FLAG_SEQUENCE}). */
    public boolean inSequence()
    {
        return (flags & InferFrameFlyweight.FLAG_SEQUENCE) != 0;
    }

    /** @return whether the request starts its sequence. */
    public boolean sequenceStart()
    {
        return (flags & InferFrameFlyweight.FLAG_SEQUENCE_START) != 0;
    }

    /** @return whether the request ends its sequence. */
    public boolean sequenceEnd()
    {
        return (flags & InferFrameFlyweight.FLAG_SEQUENCE_END) != 0;
    }

    /** @return the numeric correlation ID (unsigned), 0 when none or when it is a string. */
    public long sequenceId()
    {
        return sequenceId;
    }

    /** @return the offset of the string correlation ID in the ring buffer. */
    public long sequenceIdOffset()
    {
        return sequenceIdOffset;
    }

    /** @return bytes of the string correlation ID, 0 for none. */
    public int sequenceIdLength()
    {
        return sequenceIdLength;
    }

    /** @return the offset of the model name in the ring buffer. */
    public long modelNameOffset()
    {
        return modelNameOffset;
    }

    /** @return bytes of the model name. */
    public int modelNameLength()
    {
        return modelNameLength;
    }

    /** @return the offset of the id in the ring buffer. */
    public long idOffset()
    {
        return idOffset;
    }

    /** @return bytes of the id. */
    public int idLength()
    {
        return idLength;
    }

    /** @return the number of inputs. */
    public int inputCount()
    {
        return inputCount;
    }

    /**
     * @param i input index
     * @return the offset of its name in the ring buffer
     */
    public long inputNameOffset(final int i)
    {
        return inputNameOffsets[i];
    }

    /**
     * @param i input index
     * @return bytes of its name
     */
    public int inputNameLength(final int i)
    {
        return inputNameLengths[i];
    }

    /**
     * @param i input index
     * @return its name (allocates: for messages and tests)
     */
    public String inputName(final int i)
    {
        return FrameText.get(buffer, inputNameOffsets[i], inputNameLengths[i]);
    }

    /**
     * @param i input index
     * @return its datatype
     */
    public IpcDataType inputDataType(final int i)
    {
        return inputTypes[i];
    }

    /**
     * @param i input index
     * @return its rank
     */
    public int inputRank(final int i)
    {
        return inputRanks[i];
    }

    /**
     * @param i input index
     * @return its shape, in an array of exactly its rank that is reused by the next call
     */
    public long[] inputShape(final int i)
    {
        final long[] shape = shapeScratch[inputRanks[i]];
        System.arraycopy(inputShapes[i], 0, shape, 0, shape.length);
        return shape;
    }

    /**
     * @param i input index
     * @return the file offset of its first byte
     */
    public long inputOffset(final int i)
    {
        return inputOffsets[i];
    }

    /**
     * @param i input index
     * @return its length in bytes
     */
    public long inputLength(final int i)
    {
        return inputLengths[i];
    }

    /** @return the number of requested outputs (0: all). */
    public int outputCount()
    {
        return outputCount;
    }

    /**
     * @param i requested-output index
     * @return the offset of its name in the ring buffer
     */
    public long outputNameOffset(final int i)
    {
        return outputNameOffsets[i];
    }

    /**
     * @param i requested-output index
     * @return bytes of its name
     */
    public int outputNameLength(final int i)
    {
        return outputNameLengths[i];
    }
}
