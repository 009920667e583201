package io.ingot.python;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.ipc.OutputNameFlyweight;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.SlabAllocator;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns a {@link Batch} into the stub's EXECUTE frame: every input copied once into the instance's input area, and a
 * descriptor that gives each request of the batch its rows of each input, as tensor entries that the stub reads as
 * numpy arrays in place.
 *
 * <p>How requests are split. Without batching ({@code max_batch_size: 0}) a batch is one request. With batching the
 * backend interface hands over the requests' rows concatenated and tells only how many requests and rows there are:
 * when every request has one row (the usual case) each becomes its own request for {@code execute}; when one request
 * holds every row, that is the request; otherwise (several requests with more rows than requests) the rows cannot
 * be attributed, and {@code execute} sees them as one request holding all rows. Used by the instance thread only;
 * reuses its arrays from batch to batch.
 */
final class BatchEncoder
{
    private final ModelConfig config;
    private final boolean batching;
    private final byte[][] outputNames;
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();
    private final OutputNameFlyweight outputName = new OutputNameFlyweight();

    private final Map<String, byte[]> inputNameBytes = new HashMap<>();
    private int requests;
    private long batchRows;
    private int inputCount;
    private BatchInput[] inputs = new BatchInput[4];
    private byte[][] inputNames = new byte[4][];
    private long[] inputOffsets = new long[4];
    /** Per input, per request + 1: where each request's part starts, relative to the input's copy. */
    private long[][] boundaries = new long[4][];
    private final int[] requestedOutputs;
    private int requestedCount;

    /**
     * @param config the model's configuration
     */
    BatchEncoder(final ModelConfig config)
    {
        this.config = config;
        this.batching = config.getMaxBatchSize() > 0;
        this.outputNames = new byte[config.getOutputCount()][];
        for (int o = 0; o < outputNames.length; o++)
        {
            outputNames[o] = config.getOutput(o).getName().getBytes(StandardCharsets.UTF_8);
        }
        this.requestedOutputs = new int[outputNames.length];
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final String name = config.getInput(i).getName();
            inputNameBytes.put(name, name.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** @return the number of requests {@code execute} receives for the last batch. */
    int requests()
    {
        return requests;
    }

    /**
     * @param request a request of the last batch
     * @return its rows (its batch size; 1 for a model without batching)
     */
    long rows(final int request)
    {
        if (!batching)
        {
            return 1;
        }
        return requests == 1 ? batchRows : 1;
    }

    /**
     * Copies the batch's inputs into the input area (which it resets first) and prepares the descriptor.
     *
     * @param batch  the batch
     * @param region the instance's region
     * @return bytes of the EXECUTE body
     * @throws PythonExecuteException when the inputs do not fit the input area
     */
    int prepare(final Batch batch, final StubRegion region)
    {
        final SlabAllocator area = region.inputs();
        area.reset();
        final int batchRequests = batch.requestCount();
        requests = !batching || batchRequests == 1 || batch.batchSize() != batchRequests ? 1 : batchRequests;
        batchRows = batch.batchSize();
        inputCount = batch.inputCount();
        ensureInputs(inputCount);
        int length = StubProtocol.EXECUTE_HEADER_LENGTH;
        requestedCount = 0;
        for (int o = 0; o < outputNames.length; o++)
        {
            if (batch.isOutputRequested(config.getOutput(o).getName()))
            {
                requestedOutputs[requestedCount++] = o;
                length += OutputNameFlyweight.encodedLength(outputNames[o].length);
            }
        }
        int perRequest = StubProtocol.REQUEST_HEADER_LENGTH;
        for (int i = 0; i < inputCount; i++)
        {
            final BatchInput input = batch.input(i);
            inputs[i] = input;
            inputNames[i] = inputNameBytes.get(input.name());
            final MemorySegment data = input.data();
            final long offset = area.allocate(data.byteSize());
            if (offset == SlabAllocator.FAILED)
            {
                throw new PythonExecuteException("python model '" + config.getName() + "': the batch's inputs need "
                    + "more shared memory than the instance's input area has (" + area.freeBytes() + " of "
                    + area.capacity() + " bytes free when input '" + input.name() + "' needed " + data.byteSize()
                    + "); raise the model's parameter " + PythonSettings.SHM_BYTES + " or lower max_batch_size");
            }
            MemorySegment.copy(data, 0, region.memory(), offset, data.byteSize());
            inputOffsets[i] = offset;
            split(i, input, region.memory(), offset, data.byteSize());
            perRequest += TensorEntryFlyweight.encodedLength(input.rank(), inputNames[i].length);
        }
        return length + requests * perRequest;
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
        buffer.set(SharedMemory.SHORT, offset + 4, (short)requestedCount);
        buffer.set(SharedMemory.SHORT, offset + 6, (short)0);
        long cursor = offset + StubProtocol.EXECUTE_HEADER_LENGTH;
        for (int k = 0; k < requestedCount; k++)
        {
            cursor += outputName.wrap(buffer, cursor).name(outputNames[requestedOutputs[k]]).encodedLength();
        }
        for (int r = 0; r < requests; r++)
        {
            buffer.set(SharedMemory.SHORT, cursor, (short)inputCount);
            buffer.set(SharedMemory.SHORT, cursor + 2, (short)0);
            buffer.set(SharedMemory.INT, cursor + 4, 0);
            cursor += StubProtocol.REQUEST_HEADER_LENGTH;
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
                    entry.dim(d, d == 0 && batching && requests > 1 ? 1 : input.dim(d));
                }
                entry.name(inputNames[i]);
                cursor += entry.encodedLength();
            }
        }
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
        if (input.dataType() != DataType.BYTES)
        {
            final long rowBytes = byteSize / requests;
            for (int r = 1; r < requests; r++)
            {
                bounds[r] = r * rowBytes;
            }
            return;
        }
        long perRow = 1;
        for (int d = 1; d < input.rank(); d++)
        {
            perRow *= input.dim(d);
        }
        long position = 0;
        for (int r = 1; r < requests; r++)
        {
            for (long e = 0; e < perRow; e++)
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
}
