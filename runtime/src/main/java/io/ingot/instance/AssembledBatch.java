package io.ingot.instance;

import io.ingot.scheduler.SequencePolicies;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceRequest;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.BatchRequest;
import io.ingot.backend.ResponseSender;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Batch} an instance hands its engine: inputs assembled into one staging set (or passed through for a
 * batch of one), and outputs allocated where the responses will read them: for a batch of one, straight in the
 * response's memory; for a larger batch whose requests all take their memory from the core's
 * {@link PooledResponseAllocator}, once for the whole batch as a {@link SharedOutput} that each response gets a slice
 * of; else (requests with allocators of their own, {@code BYTES} outputs, outputs nobody asked for) in staging, from
 * which the instance copies each response's rows. Reused for every batch of its instance.
 */
final class AssembledBatch implements Batch
{
    /** One assembled input. */
    static final class InputView implements BatchInput
    {
        final String name;
        final DataType dataType;
        long[] shape = new long[8];
        int rank;
        MemorySegment data;
        boolean present;

        InputView(final String name, final DataType dataType)
        {
            this.name = name;
            this.dataType = dataType;
        }

        @Override
        public String name()
        {
            return name;
        }

        @Override
        public DataType dataType()
        {
            return dataType;
        }

        @Override
        public int rank()
        {
            return rank;
        }

        @Override
        public long dim(final int dimension)
        {
            if (dimension < 0 || dimension >= rank)
            {
                throw new IndexOutOfBoundsException("dimension " + dimension + " of input '" + name + "' with rank "
                    + rank);
            }
            return shape[dimension];
        }

        @Override
        public long[] shape()
        {
            return Arrays.copyOf(shape, rank);
        }

        @Override
        public MemorySegment data()
        {
            return data;
        }
    }

    /** One output as the engine produced it. */
    static final class OutputSlot
    {
        final String name;
        final DataType dataType;
        long[] shape = new long[8];
        int rank;
        MemorySegment data;
        MemorySegment allocation;
        boolean allocated;
        /** True when {@link #data} is the single request's response memory. */
        boolean direct;
        /**
         * The batch-wide response memory {@link #data} is (the instance holding it until the responses are written),
         * or {@code null}.
         */
        SharedOutput shared;

        OutputSlot(final String name, final DataType dataType)
        {
            this.name = name;
            this.dataType = dataType;
        }
    }

    private final HostedModel model;
    private final ModelConfig config;
    private final boolean batchDimension;
    private final boolean acceptsHeapInputs;
    final InputView[] inputs;
    private final InputView[] presentInputs;
    private int presentCount;
    final OutputSlot[] outputs;
    private final Map<String, Integer> inputIndex = new HashMap<>();
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final StagingBuffer[] inputStaging;
    private final StagingBuffer[] outputStaging;
    /** The sequence batcher's control tensors, or {@code null} for a model without {@code sequence_batching}. */
    private final SequenceControlInputs sequenceControls;
    /** The sequences' implicit states, or {@code null} for a model without {@code sequence_batching.state}. */
    private final SequenceStates states;
    /**
     * The engine's state outputs, by state index (also in {@link #outputs}: the configured output of that name when
     * the configuration lists it, so that clients can ask for the state, else a slot after the configured outputs).
     */
    private final OutputSlot[] stateOutputs;
    /** The configured outputs that are also state outputs, one bit per configured index: always produced. */
    private final long listedStateOutputs;

    /**
     * The response senders of a decoupled model or of an engine that responds per request, or {@code null}: then
     * the engine answers with allocateOutput.
     */
    private final ResponseSenders senders;
    /** One view per row of the batch, grown to the largest batch seen. */
    private RequestView[] views = new RequestView[0];

    FormedBatch payload;
    private long requestedOutputs;
    /** The core's pool when it supplies every request's output memory, or {@code null}: then nothing is shared. */
    private final PooledResponseAllocator pool;
    /** Whether this batch's requested outputs are allocated once and sliced ({@link OutputSlot#shared}). */
    private boolean shareOutputs;

    AssembledBatch(final HostedModel model, final PinnedAllocator allocator, final boolean acceptsHeapInputs,
        final boolean respondsPerRequest)
    {
        this.model = model;
        this.config = model.config();
        this.batchDimension = config.getMaxBatchSize() > 0;
        this.acceptsHeapInputs = acceptsHeapInputs;
        this.pool = model.defaultAllocator() instanceof PooledResponseAllocator own ? own : null;
        final boolean decoupled = config.getModelTransactionPolicy().getDecoupled();
        this.senders = decoupled || respondsPerRequest ? new ResponseSenders(model, allocator, decoupled) : null;
        sequenceControls = config.hasSequenceBatching() ? new SequenceControlInputs(config, allocator) : null;
        inputs = new InputView[config.getInputCount()];
        states = config.getSequenceBatching().getStateCount() == 0 ? null
            : new SequenceStates(config, model.directory(), SequencePolicies.slotsPerInstance(config),
                allocator);
        final int stateCount = states == null ? 0 : states.count();
        presentInputs = new InputView[config.getInputCount()
            + (sequenceControls == null ? 0 : sequenceControls.count()) + stateCount];
        inputStaging = new StagingBuffer[inputs.length];
        for (int i = 0; i < inputs.length; i++)
        {
            inputs[i] = new InputView(config.getInput(i).getName(),
                DataType.fromConfigNumber(config.getInput(i).getDataTypeValue()));
            inputIndex.put(inputs[i].name, i);
            inputStaging[i] = new StagingBuffer(allocator);
        }
        final List<OutputSlot> slots = new ArrayList<>();
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            slots.add(new OutputSlot(config.getOutput(i).getName(),
                DataType.fromConfigNumber(config.getOutput(i).getDataTypeValue())));
            outputIndex.put(config.getOutput(i).getName(), i);
        }
        stateOutputs = new OutputSlot[stateCount];
        long listed = 0;
        for (int s = 0; s < stateCount; s++)
        {
            final Integer configured = outputIndex.get(states.outputName(s));
            if (configured != null)
            {
                listed |= 1L << configured;
                stateOutputs[s] = slots.get(configured);
                continue;
            }
            stateOutputs[s] = new OutputSlot(states.outputName(s), states.type(s));
            outputIndex.put(states.outputName(s), slots.size());
            slots.add(stateOutputs[s]);
        }
        listedStateOutputs = listed;
        outputs = slots.toArray(OutputSlot[]::new);
        outputStaging = new StagingBuffer[outputs.length];
        for (int i = 0; i < outputs.length; i++)
        {
            outputStaging[i] = new StagingBuffer(allocator);
        }
    }

    /**
     * Assembles the payload's inputs: each request's bytes copied once into its rows, or passed through. A padding row
     * of a sequence batch repeats the first request's bytes (Triton's null request is a copy of it), and the
     * sequence batcher's control tensors are added after the configured inputs.
     */
    void assemble(final FormedBatch batch)
    {
        this.payload = batch;
        requestedOutputs = 0;
        shareOutputs = pool != null && batch.count() > 1;
        PendingRequest first = null;
        for (int r = 0; r < batch.count(); r++)
        {
            final PendingRequest row = batch.get(r);
            if (row != null)
            {
                requestedOutputs |= row.requestedOutputs;
                first = first == null ? row : first;
                shareOutputs &= model.allocatorFor(row) == pool;
            }
        }
        for (final OutputSlot output : outputs)
        {
            releaseShared(output);
            output.allocated = false;
            output.direct = false;
            output.data = null;
        }
        presentCount = 0;
        for (int c = 0; c < inputs.length; c++)
        {
            final InputView view = inputs[c];
            final int firstIndex = first.inputIndexByConfig[c];
            view.present = firstIndex >= 0;
            if (!view.present)
            {
                continue;
            }
            presentInputs[presentCount++] = view;
            final InferenceRequest firstRequest = first.request;
            final int rank = firstRequest.inputRank(firstIndex);
            if (view.shape.length < rank)
            {
                view.shape = new long[rank];
            }
            for (int d = 0; d < rank; d++)
            {
                view.shape[d] = firstRequest.inputDim(firstIndex, d);
            }
            view.rank = rank;
            if (batchDimension)
            {
                view.shape[0] = batch.batchSize();
            }
            final MemorySegment firstData = firstRequest.inputData(firstIndex);
            if (batch.count() == 1 && (acceptsHeapInputs || firstData.isNative()))
            {
                view.data = firstData;
                continue;
            }
            long total = 0;
            for (int r = 0; r < batch.count(); r++)
            {
                final PendingRequest pending = batch.get(r) == null ? first : batch.get(r);
                total += pending.request.inputData(pending.inputIndexByConfig[c]).byteSize();
            }
            final MemorySegment staging = inputStaging[c].slice(total);
            HostCopies.input(total);
            long offset = 0;
            for (int r = 0; r < batch.count(); r++)
            {
                final PendingRequest pending = batch.get(r) == null ? first : batch.get(r);
                final MemorySegment source = pending.request.inputData(pending.inputIndexByConfig[c]);
                MemorySegment.copy(source, 0, staging, offset, source.byteSize());
                offset += source.byteSize();
            }
            view.data = staging;
        }
        if (states != null)
        {
            states.assemble(batch);
            for (int i = 0; i < states.count(); i++)
            {
                presentInputs[presentCount++] = states.view(i);
            }
        }
        if (sequenceControls != null)
        {
            sequenceControls.fill(batch);
            for (int i = 0; i < sequenceControls.count(); i++)
            {
                presentInputs[presentCount++] = (InputView) sequenceControls.view(i);
            }
        }
    }

    /** After a successful execution: the engine's state outputs become the sequences' next states. */
    void captureStates()
    {
        if (states != null)
        {
            states.capture(payload, stateOutputs, model.name());
        }
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public int batchSize()
    {
        return payload.batchSize();
    }

    @Override
    public int requestCount()
    {
        return payload.count();
    }

    @Override
    public int inputCount()
    {
        return presentCount;
    }

    @Override
    public BatchInput input(final int index)
    {
        if (index < 0 || index >= presentCount)
        {
            throw new IndexOutOfBoundsException("input " + index + " of " + presentCount);
        }
        return presentInputs[index];
    }

    @Override
    public BatchInput input(final String name)
    {
        final Integer index = inputIndex.get(name);
        if (index == null)
        {
            final BatchInput added = addedInput(name);
            if (added != null)
            {
                return added;
            }
            throw new IllegalArgumentException("model '" + model.name() + "' has no input '" + name + "'");
        }
        final InputView view = inputs[index];
        return view.present ? view : null;
    }

    /** @return the sequence batcher's control or state input of that name, or {@code null} */
    private BatchInput addedInput(final String name)
    {
        final BatchInput control = sequenceControls == null ? null : sequenceControls.byName(name);
        return control != null || states == null ? control : states.byName(name);
    }

    @Override
    public boolean isOutputRequested(final String name)
    {
        final Integer index = outputIndex.get(name);
        // A state output is always wanted: it is the sequence's next state, though no client asks for it.
        return index != null && (index >= config.getOutputCount()
            || ((requestedOutputs | listedStateOutputs) & (1L << index)) != 0);
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape)
    {
        final OutputSlot slot = slot(name);
        return allocate(slot, shape, OutputSizes.fixedByteSize(model.name(), name, slot.dataType, shape));
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        return allocate(slot(name), shape, OutputSizes.checkedByteSize(name, byteSize));
    }

    private OutputSlot slot(final String name)
    {
        final Integer index = outputIndex.get(name);
        if (index == null)
        {
            throw new IllegalArgumentException("model '" + model.name() + "' has no output '" + name + "'");
        }
        return outputs[index];
    }

    private MemorySegment allocate(final OutputSlot slot, final long[] shape, final long byteSize)
    {
        if (senders != null)
        {
            throw new IllegalStateException("model '" + model.name() + "' answers through its response senders: "
                + "send its outputs through responseSender(request)");
        }
        if (batchDimension && (shape.length == 0 || shape[0] != payload.batchSize()))
        {
            throw new IllegalArgumentException("output '" + slot.name + "' of model '" + model.name()
                + "' must have batch dimension " + payload.batchSize() + ", got shape " + Arrays.toString(shape));
        }
        if (slot.shape.length < shape.length)
        {
            slot.shape = new long[shape.length];
        }
        System.arraycopy(shape, 0, slot.shape, 0, shape.length);
        slot.rank = shape.length;
        final int index = outputIndex.get(slot.name);
        final PendingRequest only = payload.count() == 1 ? payload.get(0) : null;
        releaseShared(slot);
        if (shareOutputs && slot.dataType != DataType.BYTES && (requestedOutputs & (1L << index)) != 0)
        {
            // Response memory for the whole batch: each response gets its rows as a slice, no copy after the run.
            slot.shared = pool.share(byteSize);
            slot.allocation = null;
            slot.data = slot.shared.open(byteSize);
            slot.direct = false;
        }
        else if (only != null && (only.requestedOutputs & (1L << index)) != 0)
        {
            final MemorySegment memory = model.allocatorFor(only).allocate(slot.name, slot.dataType, slot.shape,
                byteSize);
            if (memory == null || memory.byteSize() < byteSize)
            {
                throw new IllegalStateException("response allocator returned "
                    + (memory == null ? "null" : memory.byteSize() + " bytes") + " for output '" + slot.name
                    + "' of model '" + model.name() + "', which needs " + byteSize + " bytes");
            }
            slot.allocation = memory;
            // An allocator that hands out exactly the size asked (Ingot's pool does, in steady state) costs no slice.
            slot.data = memory.byteSize() == byteSize ? memory : memory.asSlice(0, byteSize);
            slot.direct = true;
        }
        else
        {
            slot.data = outputStaging[index].slice(byteSize);
            slot.direct = false;
        }
        slot.allocated = true;
        return slot.data;
    }

    /**
     * The instance is done with the batch's shared outputs (every response that got a slice holds its own): its
     * holds are dropped, once, so that each output returns to the pool when its last response is closed.
     */
    void releaseSharedOutputs()
    {
        for (final OutputSlot slot : outputs)
        {
            releaseShared(slot);
        }
    }

    private static void releaseShared(final OutputSlot slot)
    {
        final SharedOutput shared = slot.shared;
        if (shared != null)
        {
            slot.shared = null;
            slot.data = null;
            slot.allocated = false;
            shared.release(null);
        }
    }

    @Override
    public BatchRequest request(final int request)
    {
        final int count = payload.count();
        if (request < 0 || request >= count)
        {
            throw new IndexOutOfBoundsException("request " + request + " of a batch of " + count + " requests");
        }
        if (views.length < count)
        {
            final RequestView[] grown = Arrays.copyOf(views, count);
            for (int r = views.length; r < count; r++)
            {
                grown[r] = new RequestView(config, model.clock());
            }
            views = grown;
        }
        final PendingRequest row = payload.get(request);
        return views[request].bind(row, row == null ? rowsOfPadding() : row.batchSize);
    }

    /** A padding row of a sequence batch repeats the first request: as many rows as it. */
    private int rowsOfPadding()
    {
        for (int r = 0; r < payload.count(); r++)
        {
            if (payload.get(r) != null)
            {
                return payload.get(r).batchSize;
            }
        }
        return 1;
    }

    @Override
    public ResponseSender responseSender(final int request)
    {
        if (senders == null)
        {
            return Batch.super.responseSender(request);
        }
        return senders.get(request);
    }

    /** @return the response senders, or {@code null} when the engine answers with allocateOutput */
    ResponseSenders senders()
    {
        return senders;
    }

    void close()
    {
        releaseSharedOutputs();
        if (senders != null)
        {
            senders.close();
        }
        for (final StagingBuffer buffer : inputStaging)
        {
            buffer.close();
        }
        for (final StagingBuffer buffer : outputStaging)
        {
            buffer.close();
        }
        if (sequenceControls != null)
        {
            sequenceControls.close();
        }
        if (states != null)
        {
            states.close();
        }
    }
}
