package io.ingot.python;

import io.ingot.backend.Batch;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelOutput;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the stub's EXECUTE_RESULT and writes the batch's outputs: checks every returned tensor against the
 * configuration (a known output, its data type, its shape with the request's rows), then copies each requested
 * output once from shared memory into the memory the batch gives, requests in order.
 *
 * <p>What fails the batch (a {@link PythonExecuteException} naming the model, the request and the output): an error
 * {@code execute} raised or returned for a request, an unknown output, a wrong data type or shape, a requested
 * output that is missing, and outputs of one batch whose shapes cannot be stacked. Records that break the framing
 * raise {@link IpcRingCorruptException}, which stops the stub. Used by the instance thread only; reuses its tables.
 */
final class ResultDecoder
{
    private final ModelConfig config;
    private final String model;
    private final boolean batching;
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final DataType[] outputTypes;
    private final long[][] outputDims;
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();

    private int capacity;
    private boolean[][] present;
    private long[][] offsets;
    private long[][] lengths;
    private long[][][] shapes;
    private int[][] ranks;

    /**
     * @param config the model's configuration
     */
    ResultDecoder(final ModelConfig config)
    {
        this.config = config;
        this.model = config.getName();
        this.batching = config.getMaxBatchSize() > 0;
        final int outputs = config.getOutputCount();
        outputTypes = new DataType[outputs];
        outputDims = new long[outputs][];
        for (int o = 0; o < outputs; o++)
        {
            final ModelOutput output = config.getOutput(o);
            outputIndex.put(output.getName(), o);
            outputTypes[o] = DataType.fromConfigNumber(output.getDataTypeValue());
            outputDims[o] = output.getDimsList().stream().mapToLong(Long::longValue).toArray();
        }
        ensure(8);
    }

    /**
     * @param batch   the batch whose outputs to write
     * @param encoder how the batch was split into requests
     * @param region  the instance's region, where the outputs lie
     * @param buffer  the record's memory
     * @param offset  the body's offset
     * @param length  the body's bytes
     * @throws PythonExecuteException when the batch fails (see the class comment)
     */
    void decode(final Batch batch, final BatchEncoder encoder, final StubRegion region, final MemorySegment buffer,
        final long offset, final int length)
    {
        final long end = offset + length;
        need(offset, StubProtocol.RESULT_HEADER_LENGTH, end);
        final int status = buffer.get(SharedMemory.INT, offset);
        final int count = buffer.get(SharedMemory.INT, offset + 4);
        final int messageLength = buffer.get(SharedMemory.INT, offset + 8);
        long cursor = offset + StubProtocol.RESULT_HEADER_LENGTH;
        if (status != 0)
        {
            need(cursor, messageLength, end);
            throw new PythonExecuteException(FrameText.get(buffer, cursor, messageLength));
        }
        final int requests = encoder.requests();
        if (count != requests)
        {
            throw new IpcRingCorruptException("the stub answered " + count + " responses to " + requests
                + " requests");
        }
        ensure(requests);
        String failure = null;
        for (int r = 0; r < requests; r++)
        {
            Arrays.fill(present[r], false);
            need(cursor, StubProtocol.RESPONSE_HEADER_LENGTH, end);
            final int responseStatus = buffer.get(SharedMemory.INT, cursor);
            final int outputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, cursor + 4));
            final int textLength = buffer.get(SharedMemory.INT, cursor + 8);
            cursor += StubProtocol.RESPONSE_HEADER_LENGTH;
            need(cursor, textLength, end);
            if (responseStatus != 0 && failure == null)
            {
                final String text = FrameText.get(buffer, cursor, textLength);
                failure = requests == 1 ? text : "python model '" + model + "': execute answered request " + r
                    + " of the batch's " + requests + " with an error, which fails the whole batch (the backend "
                    + "interface cannot fail one request of a batch): " + text;
            }
            cursor += IpcLimits.align8(textLength);
            for (int k = 0; k < outputCount; k++)
            {
                cursor = readOutput(buffer, cursor, end, region, r, encoder.rows(r));
            }
        }
        if (failure != null)
        {
            throw new PythonExecuteException(failure);
        }
        writeOutputs(batch, region, requests);
    }

    private long readOutput(final MemorySegment buffer, final long cursor, final long end, final StubRegion region,
        final int request, final long rows)
    {
        need(cursor, TensorEntryFlyweight.DIMS_OFFSET, end);
        entry.wrap(buffer, cursor);
        final int rank = entry.rank();
        if (rank > IpcLimits.MAX_RANK)
        {
            throw new IpcRingCorruptException("output entry of rank " + rank);
        }
        final int nameLength = entry.nameLength();
        need(cursor, TensorEntryFlyweight.encodedLength(rank, nameLength), end);
        final String name = FrameText.get(buffer, entry.nameOffset(), nameLength);
        final Integer index = outputIndex.get(name);
        if (index == null)
        {
            throw new PythonExecuteException("python model '" + model + "': execute returned output '" + name
                + "' for request " + request + ", which the model's configuration does not have; its outputs are "
                + outputIndex.keySet());
        }
        final int o = index;
        final DataType type = DataType.fromConfigNumber(entry.dataType());
        if (type != outputTypes[o])
        {
            throw new PythonExecuteException("python model '" + model + "': execute returned output '" + name
                + "' for request " + request + " as " + (type == null ? "type " + entry.dataType() : type.wireName())
                + "; the configuration says TYPE_" + configTypeName(outputTypes[o]));
        }
        final long[] shape = shapes[request][o];
        long elements = 1;
        for (int d = 0; d < rank; d++)
        {
            shape[d] = entry.dim(d);
            elements = shape[d] < 0 ? -1 : elements * shape[d];
        }
        checkShape(name, request, shape, rank, outputDims[o], rows);
        final long tensorOffset = entry.tensorOffset();
        final long tensorLength = entry.length();
        if (!region.inDataAreas(tensorOffset, tensorLength))
        {
            throw new IpcRingCorruptException("output '" + name + "' at offset " + tensorOffset + ", length "
                + tensorLength + " lies outside the data areas");
        }
        if (type == DataType.BYTES)
        {
            checkBytes(region.memory(), tensorOffset, tensorLength, elements, name, request);
        }
        else if (tensorLength != elements * type.byteSize())
        {
            throw new IpcRingCorruptException("output '" + name + "' has " + tensorLength + " bytes for "
                + elements + " elements of " + type.wireName());
        }
        present[request][o] = true;
        offsets[request][o] = tensorOffset;
        lengths[request][o] = tensorLength;
        ranks[request][o] = rank;
        return cursor + TensorEntryFlyweight.encodedLength(rank, nameLength);
    }

    private void checkShape(final String name, final int request, final long[] shape, final int rank,
        final long[] dims, final long rows)
    {
        final int lead = batching ? 1 : 0;
        boolean ok = rank == dims.length + lead && (!batching || shape[0] == rows);
        for (int d = 0; ok && d < dims.length; d++)
        {
            ok = dims[d] < 0 || dims[d] == shape[d + lead];
        }
        if (!ok)
        {
            final StringBuilder expected = new StringBuilder("[");
            if (batching)
            {
                expected.append(rows).append(dims.length > 0 ? ", " : "");
            }
            for (int d = 0; d < dims.length; d++)
            {
                expected.append(d > 0 ? ", " : "").append(dims[d]);
            }
            throw new PythonExecuteException("python model '" + model + "': execute returned output '" + name
                + "' for request " + request + " with shape " + Arrays.toString(Arrays.copyOf(shape, rank))
                + "; the configuration says dims " + Arrays.toString(dims)
                + (batching ? " with max_batch_size " + config.getMaxBatchSize() + ", so for this request's "
                + rows + " row" + (rows == 1 ? "" : "s") : ", so") + " the shape must be " + expected
                + "] (-1: any size)");
        }
    }

    private void checkBytes(final MemorySegment memory, final long offset, final long length, final long elements,
        final String name, final int request)
    {
        long position = 0;
        for (long e = 0; e < elements; e++)
        {
            if (position + 4 > length)
            {
                throw new IpcRingCorruptException("BYTES output '" + name + "' of request " + request + " ends "
                    + "inside element " + e);
            }
            position += 4 + Integer.toUnsignedLong(memory.get(SharedMemory.INT, offset + position));
        }
        if (position != length)
        {
            throw new IpcRingCorruptException("BYTES output '" + name + "' of request " + request + " has "
                + length + " bytes, its " + elements + " elements " + position);
        }
    }

    private void writeOutputs(final Batch batch, final StubRegion region, final int requests)
    {
        for (int o = 0; o < outputTypes.length; o++)
        {
            final String name = config.getOutput(o).getName();
            if (!batch.isOutputRequested(name))
            {
                continue;
            }
            long total = 0;
            for (int r = 0; r < requests; r++)
            {
                if (!present[r][o])
                {
                    throw new PythonExecuteException("python model '" + model + "': execute returned no output '"
                        + name + "' for request " + r + ", which asked for it");
                }
                if (r > 0 && !sameRowShape(shapes[0][o], shapes[r][o], ranks[0][o], ranks[r][o]))
                {
                    throw new PythonExecuteException("python model '" + model + "': execute returned output '" + name
                        + "' with shape " + Arrays.toString(Arrays.copyOf(shapes[r][o], ranks[r][o])) + " for request "
                        + r + " and " + Arrays.toString(Arrays.copyOf(shapes[0][o], ranks[0][o])) + " for request 0;"
                        + " the requests of one batch must agree on every dimension but the first");
                }
                total += lengths[r][o];
            }
            final long[] shape = Arrays.copyOf(shapes[0][o], ranks[0][o]);
            if (batching && requests > 1)
            {
                shape[0] = requests;
            }
            final MemorySegment target = outputTypes[o] == DataType.BYTES ? batch.allocateOutput(name, shape, total)
                : batch.allocateOutput(name, shape);
            long position = 0;
            for (int r = 0; r < requests; r++)
            {
                MemorySegment.copy(region.memory(), offsets[r][o], target, position, lengths[r][o]);
                position += lengths[r][o];
            }
        }
    }

    private static boolean sameRowShape(final long[] a, final long[] b, final int rankA, final int rankB)
    {
        if (rankA != rankB)
        {
            return false;
        }
        for (int d = 1; d < rankA; d++)
        {
            if (a[d] != b[d])
            {
                return false;
            }
        }
        return true;
    }

    private static void need(final long cursor, final long bytes, final long end)
    {
        if (bytes < 0 || cursor + bytes > end)
        {
            throw new IpcRingCorruptException("EXECUTE_RESULT ends at " + end + " but a field needs " + bytes
                + " bytes at " + cursor);
        }
    }

    private static String configTypeName(final DataType type)
    {
        return type == DataType.BYTES ? "STRING" : type.wireName();
    }

    private void ensure(final int requests)
    {
        if (requests <= capacity)
        {
            return;
        }
        final int size = Math.max(requests, capacity * 2);
        final int outputs = outputTypes.length;
        present = new boolean[size][outputs];
        offsets = new long[size][outputs];
        lengths = new long[size][outputs];
        ranks = new int[size][outputs];
        shapes = new long[size][outputs][IpcLimits.MAX_RANK];
        capacity = size;
    }
}
