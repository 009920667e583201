package io.ingot.python;

import com.google.gson.JsonObject;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.BatchRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns a {@link Batch} into the stub's EXECUTE frame: every input copied once into one block of the instance's input
 * area, and per request what {@code execute} sees of it: a handle (for its response sender and its queries), its
 * id, parameters (the JSON Triton's Python backend passes), correlation ID, sequence flags, timeout and requested
 * outputs, and its rows of each input as tensor entries that the stub reads as numpy arrays in place. Each request
 * gets exactly its own rows ({@link BatchRequest#rows()}), as Triton hands a Python model each request apart.
 *
 * <p>The block stays allocated until the stub says the model dropped every array over it ({@link InputBlocks}), so a
 * decoupled model's threads may read their request's inputs after {@code execute} returned. Used by the instance
 * thread only; reuses its arrays from batch to batch.
 */
final class BatchEncoder
{
    private static final byte[] NO_BYTES = new byte[0];
    private static final byte[] NO_PARAMETERS = "{}".getBytes(StandardCharsets.UTF_8);

    private final ModelConfig config;
    private final boolean decoupled;
    private final Map<String, byte[]> inputNameBytes = new HashMap<>();
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();

    private int requests;
    private long batchId;
    private long blockOffset;
    private long blockLength;
    private long firstHandle;
    private int inputCount;
    private BatchInput[] inputs = new BatchInput[4];
    private byte[][] inputNames = new byte[4][];
    private long[] inputOffsets = new long[4];
    /** Per input, per request + 1: where each request's part starts, relative to the input's copy. */
    private long[][] boundaries = new long[4][];
    private long[] rows = new long[8];
    private byte[][] ids = new byte[8][];
    private byte[][] parameters = new byte[8][];
    private byte[][] correlationKeys = new byte[8][];
    private long[] correlationIds = new long[8];
    private int[] flags = new int[8];
    private long[] timeouts = new long[8];
    private long[] requested = new long[8];

    /**
     * @param config the model's configuration
     */
    BatchEncoder(final ModelConfig config)
    {
        this.config = config;
        this.decoupled = config.getModelTransactionPolicy().getDecoupled();
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final String name = config.getInput(i).getName();
            inputNameBytes.put(name, name.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** @return the number of requests of the last batch */
    int requests()
    {
        return requests;
    }

    /** @return the id of the last batch, under which the stub releases its inputs */
    long batchId()
    {
        return batchId;
    }

    /** @return the handle of request 0 of the last batch; request r has {@code firstHandle() + r} */
    long firstHandle()
    {
        return firstHandle;
    }

    /**
     * Copies the batch's inputs into one block of the input area and prepares the descriptor.
     *
     * @param batch   the batch
     * @param region  the instance's region
     * @param blocks  the input area's blocks, which assigns the batch its id
     * @param handle  the handle of the batch's first request
     * @return bytes of the EXECUTE body
     * @throws PythonExecuteException when the inputs do not fit the input area
     */
    int prepare(final Batch batch, final StubRegion region, final InputBlocks blocks, final long handle)
    {
        requests = batch.requestCount();
        firstHandle = handle;
        inputCount = batch.inputCount();
        ensureInputs(inputCount);
        ensureRequests(requests);
        int perRequests = 0;
        for (int r = 0; r < requests; r++)
        {
            perRequests += describe(r, batch.request(r));
        }
        long total = 0;
        for (int i = 0; i < inputCount; i++)
        {
            total += IpcLimits.align(batch.input(i).data().byteSize(), IpcLimits.TENSOR_ALIGNMENT);
        }
        batchId = blocks.allocate(total, batch.config().getName());
        blockOffset = blocks.offset(batchId);
        blockLength = Math.max(total, 1);
        long offset = blockOffset;
        int perInputs = 0;
        for (int i = 0; i < inputCount; i++)
        {
            final BatchInput input = batch.input(i);
            inputs[i] = input;
            inputNames[i] = inputNameBytes.computeIfAbsent(input.name(),
                name -> name.getBytes(StandardCharsets.UTF_8));
            final MemorySegment data = input.data();
            MemorySegment.copy(data, 0, region.memory(), offset, data.byteSize());
            inputOffsets[i] = offset;
            split(i, input, region.memory(), offset, data.byteSize());
            perInputs += TensorEntryFlyweight.encodedLength(input.rank(), inputNames[i].length);
            offset += IpcLimits.align(data.byteSize(), IpcLimits.TENSOR_ALIGNMENT);
        }
        return StubProtocol.EXECUTE_HEADER_LENGTH + perRequests + requests * perInputs;
    }

    /** Captures request r's metadata; returns the bytes of its header and texts. */
    private int describe(final int r, final BatchRequest request)
    {
        rows[r] = request.rows();
        final String id = request.id();
        ids[r] = id.isEmpty() ? NO_BYTES : id.getBytes(StandardCharsets.UTF_8);
        parameters[r] = request.parameterCount() == 0 ? NO_PARAMETERS
            : parametersJson(request).getBytes(StandardCharsets.UTF_8);
        final String key = request.correlationKey();
        correlationKeys[r] = key == null ? NO_BYTES : key.getBytes(StandardCharsets.UTF_8);
        correlationIds[r] = request.correlationId();
        flags[r] = (request.sequenceStart() ? StubProtocol.SEQUENCE_START : 0)
            | (request.sequenceEnd() ? StubProtocol.SEQUENCE_END : 0)
            | (key != null ? StubProtocol.CORRELATION_STRING : 0);
        timeouts[r] = request.timeoutMicros();
        long mask = 0;
        for (int o = 0; o < config.getOutputCount(); o++)
        {
            if (request.isOutputRequested(config.getOutput(o).getName()))
            {
                mask |= 1L << o;
            }
        }
        requested[r] = mask;
        return StubProtocol.REQUEST_HEADER_LENGTH + IpcLimits.align8(ids[r].length)
            + IpcLimits.align8(parameters[r].length) + IpcLimits.align8(correlationKeys[r].length);
    }

    /** The request's parameters as Triton's Python backend gives them to {@code request.parameters()}. */
    private static String parametersJson(final BatchRequest request)
    {
        final JsonObject json = new JsonObject();
        for (int p = 0; p < request.parameterCount(); p++)
        {
            final String name = request.parameterName(p);
            switch (request.parameterValue(p))
            {
                case String text -> json.addProperty(name, text);
                case Boolean flag -> json.addProperty(name, flag);
                case Number number -> json.addProperty(name, number);
                default -> throw new IllegalStateException("parameter '" + name + "' has an unknown type");
            }
        }
        return json.toString();
    }

    /**
     * Writes the EXECUTE body prepared by {@link #prepare}.
     *
     * @param buffer the memory to write into (the ring, or the region for an indirect body)
     * @param offset where the body starts
     */
    void write(final MemorySegment buffer, final long offset)
    {
        buffer.set(SharedMemory.INT, offset, requests);
        buffer.set(SharedMemory.SHORT, offset + 4, (short)0);
        buffer.set(SharedMemory.SHORT, offset + 6, (short)(decoupled ? StubProtocol.EXECUTE_DECOUPLED : 0));
        buffer.set(SharedMemory.LONG, offset + 8, batchId);
        buffer.set(SharedMemory.LONG, offset + 16, blockOffset);
        buffer.set(SharedMemory.LONG, offset + 24, blockLength);
        long cursor = offset + StubProtocol.EXECUTE_HEADER_LENGTH;
        for (int r = 0; r < requests; r++)
        {
            buffer.set(SharedMemory.LONG, cursor, firstHandle + r);
            buffer.set(SharedMemory.LONG, cursor + 8, correlationIds[r]);
            buffer.set(SharedMemory.LONG, cursor + 16, timeouts[r]);
            buffer.set(SharedMemory.LONG, cursor + 24, requested[r]);
            buffer.set(SharedMemory.INT, cursor + 32, flags[r]);
            buffer.set(SharedMemory.SHORT, cursor + 36, (short)inputCount);
            buffer.set(SharedMemory.SHORT, cursor + 38, (short)ids[r].length);
            buffer.set(SharedMemory.INT, cursor + 40, parameters[r].length);
            buffer.set(SharedMemory.INT, cursor + 44, correlationKeys[r].length);
            cursor += StubProtocol.REQUEST_HEADER_LENGTH;
            cursor = text(buffer, cursor, ids[r]);
            cursor = text(buffer, cursor, parameters[r]);
            cursor = text(buffer, cursor, correlationKeys[r]);
            for (int i = 0; i < inputCount; i++)
            {
                final BatchInput input = inputs[i];
                final long start = boundaries[i][r];
                final long end = boundaries[i][r + 1];
                final int rank = input.rank();
                entry.wrap(buffer, cursor).rank(rank).dataType(input.dataType().configNumber())
                    .tensorOffset(inputOffsets[i] + start).length(end - start);
                for (int d = 0; d < rank; d++)
                {
                    entry.dim(d, d == 0 && batching() && requests > 1 ? rows[r] : input.dim(d));
                }
                entry.name(inputNames[i]);
                cursor += entry.encodedLength();
            }
        }
    }

    private boolean batching()
    {
        return config.getMaxBatchSize() > 0;
    }

    private static long text(final MemorySegment buffer, final long cursor, final byte[] bytes)
    {
        FrameText.put(buffer, cursor, bytes);
        return cursor + IpcLimits.align8(bytes.length);
    }

    /** Where each request's rows of input {@code i} start in its copy. */
    private void split(final int i, final BatchInput input, final MemorySegment memory, final long offset,
        final long byteSize)
    {
        long[] bounds = boundaries[i];
        if (bounds == null || bounds.length < requests + 1)
        {
            bounds = new long[Math.max(requests + 1, 8)];
            boundaries[i] = bounds;
        }
        bounds[0] = 0;
        bounds[requests] = byteSize;
        if (requests == 1)
        {
            return;
        }
        long perRow = 1;
        for (int d = batching() ? 1 : 0; d < input.rank(); d++)
        {
            perRow *= input.dim(d);
        }
        if (input.dataType() != DataType.BYTES)
        {
            long position = 0;
            for (int r = 1; r < requests; r++)
            {
                position += rows[r - 1] * perRow * input.dataType().byteSize();
                bounds[r] = position;
            }
            return;
        }
        long position = 0;
        for (int r = 1; r < requests; r++)
        {
            for (long e = 0; e < rows[r - 1] * perRow; e++)
            {
                position += 4L + Integer.toUnsignedLong(memory.get(SharedMemory.INT, offset + position));
            }
            bounds[r] = position;
        }
    }

    private void ensureInputs(final int count)
    {
        if (inputs.length < count)
        {
            inputs = Arrays.copyOf(inputs, count);
            inputNames = Arrays.copyOf(inputNames, count);
            inputOffsets = Arrays.copyOf(inputOffsets, count);
            boundaries = Arrays.copyOf(boundaries, count);
        }
    }

    private void ensureRequests(final int count)
    {
        if (rows.length < count)
        {
            final int size = Math.max(count, rows.length * 2);
            rows = Arrays.copyOf(rows, size);
            ids = Arrays.copyOf(ids, size);
            parameters = Arrays.copyOf(parameters, size);
            correlationKeys = Arrays.copyOf(correlationKeys, size);
            correlationIds = Arrays.copyOf(correlationIds, size);
            flags = Arrays.copyOf(flags, size);
            timeouts = Arrays.copyOf(timeouts, size);
            requested = Arrays.copyOf(requested, size);
        }
    }
}
