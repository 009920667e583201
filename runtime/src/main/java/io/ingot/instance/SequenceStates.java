package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SequenceControl;
import io.ingot.tensor.DataType;
import io.ingot.device.PinnedAllocator;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Triton's implicit state (triton-next.md §1.8) for one instance: for each {@code sequence_batching.state}, the value
 * each of the instance's sequence slots carries from one request to the next. Before a batch, the state input
 * ({@code input_name}) is assembled from the rows' slots — a START resets its slot to the initial state (zeros, or
 * the bytes of {@code initial_state/<data_file>}; without {@code initial_state}, zeros with every -1 dimension set to
 * 1) — and after a successful batch the engine's state output ({@code output_name}) is copied back into the slots of
 * the rows that held a request. So any engine that reads an input and writes an output carries state: it needs no
 * state API of its own. Reused for every batch of one instance; not thread-safe.
 */
final class SequenceStates
{
    /** One configured state and the current value of every slot. */
    private static final class State
    {
        final String inputName;
        final String outputName;
        final DataType type;
        final long[] initialDims;
        final MemorySegment initial;
        final MemorySegment[] values;
        final MemorySegment[] owned;
        final long[][] dims;

        State(final ModelSequenceBatching.State config, final MemorySegment initial, final long[] initialDims,
            final int slots)
        {
            this.inputName = config.getInputName();
            this.outputName = config.getOutputName();
            this.type = DataType.fromConfigNumber(config.getDataTypeValue());
            this.initial = initial;
            this.initialDims = initialDims;
            this.values = new MemorySegment[slots];
            this.owned = new MemorySegment[slots];
            this.dims = new long[slots][];
            for (int slot = 0; slot < slots; slot++)
            {
                reset(slot);
            }
        }

        void reset(final int slot)
        {
            values[slot] = initial;
            dims[slot] = initialDims;
        }
    }

    private static final java.lang.foreign.ValueLayout.OfInt BYTES_LENGTH = java.lang.foreign.ValueLayout
        .JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final State[] states;
    private final AssembledBatch.InputView[] views;
    private final StagingBuffer[] staging;
    private final boolean batchDimension;
    private final Arena arena = Arena.ofShared();

    /**
     * @param config         the model's configuration (with {@code sequence_batching.state})
     * @param modelDirectory where {@code initial_state/} is, or {@code null} for an in-memory model
     * @param slots          the sequence slots of the instance
     * @param allocator      the staging memory state inputs are assembled in
     */
    SequenceStates(final ModelConfig config, final Path modelDirectory, final int slots,
        final PinnedAllocator allocator)
    {
        final var configured = config.getSequenceBatching().getStateList();
        this.states = new State[configured.size()];
        this.views = new AssembledBatch.InputView[configured.size()];
        this.staging = new StagingBuffer[configured.size()];
        this.batchDimension = config.getMaxBatchSize() > 0;
        for (int i = 0; i < states.length; i++)
        {
            final ModelSequenceBatching.State state = configured.get(i);
            final long[] dims = initialDims(state);
            states[i] = new State(state, initialValue(config.getName(), state, dims, modelDirectory), dims, slots);
            views[i] = new AssembledBatch.InputView(state.getInputName(), states[i].type);
            this.staging[i] = new StagingBuffer(allocator);
        }
    }

    private static long[] initialDims(final ModelSequenceBatching.State state)
    {
        final var source = state.getInitialStateCount() == 1 ? state.getInitialState(0).getDimsList()
            : state.getDimsList();
        return source.stream().mapToLong(dim -> dim < 0 ? 1 : dim).toArray();
    }

    private MemorySegment initialValue(final String model, final ModelSequenceBatching.State state,
        final long[] dims, final Path modelDirectory)
    {
        final DataType type = DataType.fromConfigNumber(state.getDataTypeValue());
        final long bytes = Arrays.stream(dims).reduce(1, Math::multiplyExact) * Math.max(1, type.byteSize());
        if (state.getInitialStateCount() == 1 && state.getInitialState(0).hasDataFile())
        {
            final String file = state.getInitialState(0).getDataFile();
            final Path path = modelDirectory == null ? null
                : modelDirectory.resolve("initial_state").resolve(file);
            try
            {
                if (path == null)
                {
                    throw new IOException("an in-memory model has no initial_state directory");
                }
                final byte[] content = Files.readAllBytes(path);
                if (type != DataType.BYTES && content.length != bytes)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "model '" + model + "': initial state '"
                        + state.getInitialState(0).getName() + "' of state input '" + state.getInputName()
                        + "' expects " + bytes + " bytes, but '" + path + "' has " + content.length + " bytes");
                }
                return arena.allocate(content.length, 8).copyFrom(MemorySegment.ofArray(content));
            }
            catch (final IOException ex)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "model '" + model + "': cannot read initial "
                    + "state file '" + file + "' of state input '" + state.getInputName() + "': " + ex.getMessage(),
                    ex);
            }
        }
        if (type == DataType.BYTES)
        {
            // Zeros for strings: every element empty, i.e. a 4-byte length of 0 each (as Triton's zero_data).
            return arena.allocate(Arrays.stream(dims).reduce(1, Math::multiplyExact) * Integer.BYTES, 8);
        }
        return arena.allocate(bytes, 8);
    }

    /** @return the number of state inputs */
    int count()
    {
        return views.length;
    }

    /**
     * @param index a state's index
     * @return its state input, as assembled by the last {@link #assemble}
     */
    AssembledBatch.InputView view(final int index)
    {
        return views[index];
    }

    /**
     * @param name an input name
     * @return the state input of that name, or {@code null}
     */
    AssembledBatch.InputView byName(final String name)
    {
        for (final AssembledBatch.InputView view : views)
        {
            if (view.name.equals(name))
            {
                return view;
            }
        }
        return null;
    }

    /**
     * @param index a state's index
     * @return the name of the output the engine writes the next state to
     */
    String outputName(final int index)
    {
        return states[index].outputName;
    }

    /**
     * @param index a state's index
     * @return its datatype
     */
    DataType type(final int index)
    {
        return states[index].type;
    }

    /**
     * Resets the slots of START rows and assembles every state input. A padding row carries its slot's value
     * unchanged (or the initial state when the row has no slot).
     *
     * @param batch the batch a sequence policy formed
     */
    void assemble(final FormedBatch batch)
    {
        for (int s = 0; s < states.length; s++)
        {
            final State state = states[s];
            long total = 0;
            long rowBytes = -1;
            long[] rowDims = state.initialDims;
            for (int r = 0; r < batch.count(); r++)
            {
                final int slot = batch.slot(r);
                if (batch.get(r) != null && SequenceControl.has(batch.control(r), SequenceControl.START))
                {
                    state.reset(slot);
                }
                final MemorySegment value = slot < 0 ? state.initial : state.values[slot];
                // BYTES rows differ in bytes, not in shape: they are held to the first row's dims instead.
                if (state.type == DataType.BYTES && rowBytes >= 0
                    && !Arrays.equals(rowDims, slot < 0 ? state.initialDims : state.dims[slot]))
                {
                    throw new InferenceException(ErrorCode.INTERNAL, "the implicit state '" + state.inputName
                        + "' of the sequences in one batch has different shapes (" + Arrays.toString(rowDims)
                        + " and " + Arrays.toString(slot < 0 ? state.initialDims : state.dims[slot]) + ")");
                }
                if (state.type != DataType.BYTES && rowBytes >= 0 && value.byteSize() != rowBytes)
                {
                    throw new InferenceException(ErrorCode.INTERNAL, "the implicit state '" + state.inputName
                        + "' of the sequences in one batch has different sizes (" + rowBytes + " and "
                        + value.byteSize() + " bytes); a state with variable dimensions must keep one shape");
                }
                rowBytes = value.byteSize();
                rowDims = slot < 0 ? state.initialDims : state.dims[slot];
                total += value.byteSize();
            }
            final MemorySegment data = staging[s].slice(total);
            long offset = 0;
            for (int r = 0; r < batch.count(); r++)
            {
                final int slot = batch.slot(r);
                final MemorySegment value = slot < 0 ? state.initial : state.values[slot];
                MemorySegment.copy(value, 0, data, offset, value.byteSize());
                offset += value.byteSize();
            }
            final AssembledBatch.InputView view = views[s];
            view.present = true;
            final int rank = rowDims.length + (batchDimension ? 1 : 0);
            if (view.shape.length < rank)
            {
                view.shape = new long[rank];
            }
            int d = 0;
            if (batchDimension)
            {
                view.shape[d++] = batch.count();
            }
            for (final long dim : rowDims)
            {
                view.shape[d++] = dim;
            }
            view.rank = rank;
            view.data = data;
        }
    }

    /**
     * After a successful batch: the engine's state outputs become the slots' values, row by row, for the rows that
     * held a request.
     *
     * @param batch   the batch
     * @param outputs the engine's outputs by state index (their data and shape)
     * @param model   the model's name, for messages
     */
    void capture(final FormedBatch batch, final AssembledBatch.OutputSlot[] outputs, final String model)
    {
        for (int s = 0; s < states.length; s++)
        {
            final State state = states[s];
            final AssembledBatch.OutputSlot output = outputs[s];
            if (!output.allocated)
            {
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + model + "' did not produce the state "
                    + "output '" + state.outputName + "' of its implicit state '" + state.inputName + "'");
            }
            final long fixedRowBytes = output.data.byteSize() / batch.count();
            final long rowElements = state.type == DataType.BYTES ? rowElements(output) : 0;
            long next = 0;
            for (int r = 0; r < batch.count(); r++)
            {
                final PendingRequest row = batch.get(r);
                final int slot = batch.slot(r);
                final long rowStart = state.type == DataType.BYTES ? next : r * fixedRowBytes;
                if (state.type == DataType.BYTES)
                {
                    next = bytesEnd(output.data, rowStart, rowElements, model, state.outputName);
                }
                final long rowBytes = state.type == DataType.BYTES ? next - rowStart : fixedRowBytes;
                if (row == null || slot < 0)
                {
                    continue;
                }
                // Each slot owns one buffer, grown only when the state grows: no allocation per request.
                MemorySegment buffer = state.owned[slot];
                if (buffer == null || buffer.byteSize() < rowBytes)
                {
                    buffer = arena.allocate(rowBytes, 8);
                    state.owned[slot] = buffer;
                }
                final MemorySegment value = buffer.byteSize() == rowBytes ? buffer : buffer.asSlice(0, rowBytes);
                MemorySegment.copy(output.data, rowStart, value, 0, rowBytes);
                state.values[slot] = value;
                if (!sameDims(state.dims[slot], output))
                {
                    state.dims[slot] = Arrays.copyOfRange(output.shape, batchDimension ? 1 : 0, output.rank);
                }
            }
        }
    }

    /** @return the elements of one row of a state output (every dimension but the batch one) */
    private long rowElements(final AssembledBatch.OutputSlot output)
    {
        long elements = 1;
        for (int d = batchDimension ? 1 : 0; d < output.rank; d++)
        {
            elements *= output.shape[d];
        }
        return elements;
    }

    /** @return the offset after {@code elements} BYTES elements (4-byte little-endian lengths) from {@code start} */
    private static long bytesEnd(final MemorySegment data, final long start, final long elements, final String model,
        final String output)
    {
        long offset = start;
        for (long i = 0; i < elements; i++)
        {
            if (offset + Integer.BYTES > data.byteSize())
            {
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + model + "' produced a BYTES state output '"
                    + output + "' with fewer elements than its shape says");
            }
            offset += Integer.BYTES + Integer.toUnsignedLong(data.get(BYTES_LENGTH, offset));
        }
        return offset;
    }

    private boolean sameDims(final long[] dims, final AssembledBatch.OutputSlot output)
    {
        final int first = batchDimension ? 1 : 0;
        if (dims.length != output.rank - first)
        {
            return false;
        }
        for (int d = 0; d < dims.length; d++)
        {
            if (dims[d] != output.shape[first + d])
            {
                return false;
            }
        }
        return true;
    }

    /** Frees the slots' and the staging memory (the instance is closing). */
    void close()
    {
        for (final StagingBuffer buffer : staging)
        {
            buffer.close();
        }
        arena.close();
    }
}
