package io.ingot.ipc.client;

import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.OutputNameFlyweight;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.ipc.Utf8;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A request to send through an {@link IpcClient}: model, version, id, priority, queue timeout, inputs (tensors in the
 * client's slab) and the outputs wanted. Reusable: {@link #clearInputs()} and refill it for the next request; names
 * are encoded once when set. Limits (docs/ipc.md): names up to 128 bytes, up to 32 inputs and 32 outputs, rank up
 * to 8; a violation is an {@link IllegalArgumentException} naming the value.
 */
public final class IpcRequest
{
    private static final byte[] EMPTY = new byte[0];

    private byte[] model;
    private String modelName;
    private long version = -1;
    private byte[] id = EMPTY;
    private long priority;
    private long timeoutMicros;
    private int sequenceFlags;
    private long sequenceId;
    private byte[] sequenceKey = EMPTY;

    private int inputCount;
    private final byte[][] inputNames = new byte[IpcLimits.MAX_INPUTS][];
    private final IpcDataType[] inputTypes = new IpcDataType[IpcLimits.MAX_INPUTS];
    private final long[][] inputShapes = new long[IpcLimits.MAX_INPUTS][];
    private final long[] inputOffsets = new long[IpcLimits.MAX_INPUTS];
    private final long[] inputLengths = new long[IpcLimits.MAX_INPUTS];

    private int outputCount;
    private final byte[][] outputNames = new byte[IpcLimits.MAX_OUTPUTS][];

    private final InferFrameFlyweight frame = new InferFrameFlyweight();
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();
    private final OutputNameFlyweight outputEntry = new OutputNameFlyweight();

    /**
     * @param modelName the model to run
     */
    public IpcRequest(final String modelName)
    {
        model(modelName);
    }

    /**
     * @param modelName the model to run, 1..128 bytes of UTF-8
     * @return this
     */
    public IpcRequest model(final String modelName)
    {
        this.model = Utf8.encodeBounded("model name", modelName, 1, IpcLimits.MAX_NAME_LENGTH);
        this.modelName = modelName;
        return this;
    }

    /** @return the model name. */
    public String modelName()
    {
        return modelName;
    }

    /**
     * @param modelVersion a version {@code >= 0}, or -1 for the model's default
     * @return this
     */
    public IpcRequest version(final long modelVersion)
    {
        if (modelVersion < -1)
        {
            throw new IllegalArgumentException("model version must be -1 (default) or >= 0, was " + modelVersion);
        }
        this.version = modelVersion;
        return this;
    }

    /**
     * @param requestId an id for error messages and statistics, up to 128 bytes of UTF-8 ({@code null}: none)
     * @return this
     */
    public IpcRequest id(final String requestId)
    {
        this.id = requestId == null ? EMPTY : Utf8.encodeBounded("request id", requestId, 0,
            IpcLimits.MAX_ID_LENGTH);
        return this;
    }

    /**
     * @param level the priority level, {@code >= 0} (0: the model's default)
     * @return this
     */
    public IpcRequest priority(final long level)
    {
        if (level < 0)
        {
            throw new IllegalArgumentException("priority must be >= 0, was " + level);
        }
        this.priority = level;
        return this;
    }

    /**
     * @param micros a queue timeout in microseconds, {@code >= 0} (0: none)
     * @return this
     */
    public IpcRequest timeoutMicros(final long micros)
    {
        if (micros < 0)
        {
            throw new IllegalArgumentException("timeout must be >= 0 microseconds, was " + micros);
        }
        this.timeoutMicros = micros;
        return this;
    }

    /**
     * Puts the request in a sequence with a numeric correlation ID, for a model with {@code sequence_batching}
     * (Triton's {@code sequence_id}, {@code sequence_start}, {@code sequence_end}). The ID is unsigned: a negative
     * {@code long} stands for 2^63 or more. 0 is "no correlation ID", which a sequence model refuses with Triton's
     * error.
     *
     * @param id    the correlation ID (unsigned)
     * @param start whether this request starts the sequence
     * @param end   whether it ends it
     * @return this
     */
    public IpcRequest sequence(final long id, final boolean start, final boolean end)
    {
        sequenceId = id;
        sequenceKey = EMPTY;
        return sequenceFlags(start, end);
    }

    /**
     * Puts the request in a sequence with a string correlation ID (up to 128 bytes of UTF-8; "5" and the number 5
     * are two sequences).
     *
     * @param id    the correlation ID, not empty
     * @param start whether this request starts the sequence
     * @param end   whether it ends it
     * @return this
     */
    public IpcRequest sequence(final String id, final boolean start, final boolean end)
    {
        sequenceKey = Utf8.encodeBounded("sequence id", id, 1, IpcLimits.MAX_SEQUENCE_ID_LENGTH);
        sequenceId = 0;
        return sequenceFlags(start, end);
    }

    /**
     * Changes only the start and end flags of a request already in a sequence: reusing one request for every
     * request of a sequence this way allocates nothing (the string ID stays encoded).
     *
     * @param start whether this request starts the sequence
     * @param end   whether it ends it
     * @return this
     */
    public IpcRequest sequenceFlags(final boolean start, final boolean end)
    {
        sequenceFlags = InferFrameFlyweight.FLAG_SEQUENCE
            | (start ? InferFrameFlyweight.FLAG_SEQUENCE_START : 0)
            | (end ? InferFrameFlyweight.FLAG_SEQUENCE_END : 0);
        return this;
    }

    /**
     * Takes the request out of any sequence.
     *
     * @return this
     */
    public IpcRequest noSequence()
    {
        sequenceFlags = 0;
        sequenceId = 0;
        sequenceKey = EMPTY;
        return this;
    }

    /** @return whether the request is in a sequence. */
    public boolean inSequence()
    {
        return sequenceFlags != 0;
    }

    /**
     * Adds an input with the tensor's own datatype and shape.
     *
     * @param name   the input's name in the model configuration
     * @param tensor a tensor of the client that will submit this request
     * @return this
     */
    public IpcRequest addInput(final String name, final IpcTensor tensor)
    {
        return addInput(name, tensor.dataType(), tensor.shapeView(), tensor.offset(), tensor.byteLength());
    }

    /**
     * Adds an input that views part of a tensor with another datatype or shape.
     *
     * @param name       the input's name
     * @param dataType   its element type
     * @param shape      its shape (copied)
     * @param tensor     the tensor holding its bytes
     * @param byteLength its bytes, from the start of {@code tensor}, at most the tensor's length
     * @return this
     */
    public IpcRequest addInput(final String name, final IpcDataType dataType, final long[] shape,
        final IpcTensor tensor, final long byteLength)
    {
        if (byteLength < 0 || byteLength > tensor.byteLength())
        {
            throw new IllegalArgumentException("input '" + name + "' of " + byteLength + " bytes does not fit its "
                + tensor.byteLength() + "-byte tensor");
        }
        return addInput(name, dataType, shape, tensor.offset(), byteLength);
    }

    private IpcRequest addInput(final String name, final IpcDataType dataType, final long[] shape, final long offset,
        final long byteLength)
    {
        if (inputCount == IpcLimits.MAX_INPUTS)
        {
            throw new IllegalArgumentException("a request takes at most " + IpcLimits.MAX_INPUTS + " inputs");
        }
        if (shape.length > IpcLimits.MAX_RANK)
        {
            throw new IllegalArgumentException("input '" + name + "' has rank " + shape.length + "; at most "
                + IpcLimits.MAX_RANK);
        }
        final int i = inputCount;
        inputNames[i] = Utf8.encodeBounded("input name", name, 1, IpcLimits.MAX_NAME_LENGTH);
        inputTypes[i] = dataType;
        inputShapes[i] = shape.clone();
        inputOffsets[i] = offset;
        inputLengths[i] = byteLength;
        inputCount++;
        return this;
    }

    /**
     * Asks for one output; without any, the response carries every output of the model.
     *
     * @param name the output's name
     * @return this
     */
    public IpcRequest requestOutput(final String name)
    {
        if (outputCount == IpcLimits.MAX_OUTPUTS)
        {
            throw new IllegalArgumentException("a request asks for at most " + IpcLimits.MAX_OUTPUTS + " outputs");
        }
        outputNames[outputCount++] = Utf8.encodeBounded("output name", name, 1, IpcLimits.MAX_NAME_LENGTH);
        return this;
    }

    /**
     * Removes every input.
     *
     * @return this
     */
    public IpcRequest clearInputs()
    {
        Arrays.fill(inputNames, 0, inputCount, null);
        inputCount = 0;
        return this;
    }

    /**
     * Removes every requested output.
     *
     * @return this
     */
    public IpcRequest clearOutputs()
    {
        Arrays.fill(outputNames, 0, outputCount, null);
        outputCount = 0;
        return this;
    }

    /** @return the number of inputs. */
    public int inputCount()
    {
        return inputCount;
    }

    /** @return bytes of this request's INFER frame. */
    public int encodedLength()
    {
        int length = InferFrameFlyweight.headerAndStringsLength(model.length, id.length, sequenceFlags != 0,
            sequenceKey.length);
        for (int i = 0; i < inputCount; i++)
        {
            length += TensorEntryFlyweight.encodedLength(inputShapes[i].length, inputNames[i].length);
        }
        for (int i = 0; i < outputCount; i++)
        {
            length += OutputNameFlyweight.encodedLength(outputNames[i].length);
        }
        return length;
    }

    /**
     * Writes this request's INFER frame.
     *
     * @param buffer        the ring's memory
     * @param offset        where the body goes
     * @param correlationId the id to send
     * @return bytes written
     */
    int encode(final MemorySegment buffer, final long offset, final long correlationId)
    {
        frame.wrap(buffer, offset)
            .correlationId(correlationId)
            .modelVersion(version)
            .priority(priority)
            .timeoutMicros(timeoutMicros)
            .inputCount(inputCount)
            .outputCount(outputCount)
            .flags(sequenceFlags);
        if (sequenceFlags != 0)
        {
            frame.sequenceId(sequenceId);
        }
        frame.strings(model, id, sequenceKey);
        long cursor = frame.firstInputOffset();
        for (int i = 0; i < inputCount; i++)
        {
            final long[] shape = inputShapes[i];
            entry.wrap(buffer, cursor)
                .rank(shape.length)
                .dataType(inputTypes[i].code())
                .tensorOffset(inputOffsets[i])
                .length(inputLengths[i]);
            for (int d = 0; d < shape.length; d++)
            {
                entry.dim(d, shape[d]);
            }
            entry.name(inputNames[i]);
            cursor += entry.encodedLength();
        }
        for (int i = 0; i < outputCount; i++)
        {
            outputEntry.wrap(buffer, cursor).name(outputNames[i]);
            cursor += outputEntry.encodedLength();
        }
        return (int)(cursor - offset);
    }
}
