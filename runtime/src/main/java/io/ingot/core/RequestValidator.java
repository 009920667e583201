package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.scheduler.PendingRequest;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Validation at the edge: a request is checked against its model version's configuration before anything is queued,
 * and every problem is a synchronous INVALID_ARG with Triton's message, naming the model, the tensor and what was
 * expected (unknown or repeated input, datatype, shape, batch size, byte size, BYTES layout, missing input, unknown
 * output). Immutable after construction; thread-safe.
 */
final class RequestValidator
{
    /**
     * A thread that owns no memory: memory it may access is memory any thread may access (a confined segment is
     * accessible by its owner only). Never started.
     */
    private static final Thread NOT_THE_CALLER = Thread.ofPlatform().unstarted(() -> { });

    private static final ValueLayout.OfInt LENGTH_PREFIX =
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final ModelConfig config;
    private final Map<String, Integer> inputIndex = new HashMap<>();
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final DataType[] inputTypes;
    private final long[][] inputDims;
    private final boolean[] inputOptional;
    private final long allOutputs;
    private final boolean batching;
    private final int maxBatchSize;

    /**
     * @param name   the model's name, for messages
     * @param config its normalized configuration (at most 63 inputs and 63 outputs)
     */
    RequestValidator(final String name, final ModelConfig config)
    {
        this.name = name;
        this.config = config;
        this.batching = config.getMaxBatchSize() > 0;
        this.maxBatchSize = config.getMaxBatchSize();
        inputTypes = new DataType[config.getInputCount()];
        inputDims = new long[config.getInputCount()][];
        inputOptional = new boolean[config.getInputCount()];
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final ModelInput input = config.getInput(i);
            inputIndex.put(input.getName(), i);
            inputTypes[i] = DataType.fromConfigNumber(input.getDataTypeValue());
            inputDims[i] = input.getDimsList().stream().mapToLong(Long::longValue).toArray();
            inputOptional[i] = input.getOptional();
        }
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            outputIndex.put(config.getOutput(i).getName(), i);
        }
        allOutputs = config.getOutputCount() == 0 ? 0 : (1L << config.getOutputCount()) - 1;
    }

    /**
     * Checks a request against the configuration and fills in the bookkeeping the scheduler needs: each configured
     * input's index in the request, the set of inputs present, the outputs to return, and the batch size.
     *
     * @param request the request
     * @param pending its bookkeeping, filled in
     * @throws InferenceException INVALID_ARG naming the model, the tensor and what was expected
     */
    void validate(final InferenceRequest request, final PendingRequest pending)
    {
        final int configInputs = inputTypes.length;
        pending.ensureInputCapacity(configInputs);
        final int[] byConfig = pending.inputIndexByConfig;
        for (int i = 0; i < configInputs; i++)
        {
            byConfig[i] = -1;
        }
        long present = 0;
        long batchSize = -1;
        for (int i = 0; i < request.inputCount(); i++)
        {
            final String inputName = request.inputName(i);
            final Integer index = inputName == null ? null : inputIndex.get(inputName);
            if (index == null)
            {
                throw invalid(request, "unexpected inference input '" + inputName + "' for model '" + name + "'");
            }
            if (byConfig[index] >= 0)
            {
                throw invalid(request, "input '" + inputName + "' is given more than once for model '" + name + "'");
            }
            byConfig[index] = i;
            present |= 1L << index;
            final DataType expected = inputTypes[index];
            if (request.inputDataType(i) != expected)
            {
                throw invalid(request, "inference input '" + inputName + "' data-type is '"
                    + request.inputDataType(i) + "', but model '" + name + "' expects '" + expected + "'");
            }
            final long inputBatch = checkShape(request, i, index);
            if (batching)
            {
                if (batchSize < 0)
                {
                    batchSize = inputBatch;
                }
                else if (batchSize != inputBatch)
                {
                    throw invalid(request, "input '" + inputName + "' has batch size " + inputBatch
                        + " but an earlier input has " + batchSize + " for model '" + name
                        + "': every input must have the same batch size");
                }
            }
            checkByteSize(request, i, expected);
        }
        for (int c = 0; c < configInputs; c++)
        {
            if (byConfig[c] < 0 && !inputOptional[c])
            {
                throw invalid(request, "expected " + requiredInputs() + " inputs but got " + request.inputCount()
                    + " inputs for model '" + name + "'; missing required input(s) " + missingInputs(byConfig));
            }
        }
        if (batching && batchSize > maxBatchSize)
        {
            throw invalid(request, "inference request batch-size must be <= " + maxBatchSize + " for '" + name
                + "'");
        }
        long requested = 0;
        if (request.requestedOutputCount() == 0)
        {
            requested = allOutputs;
        }
        else
        {
            for (int i = 0; i < request.requestedOutputCount(); i++)
            {
                final String outputName = request.requestedOutput(i);
                final Integer index = outputIndex.get(outputName);
                if (index == null)
                {
                    throw invalid(request, "unexpected inference output '" + outputName + "' for model '" + name
                        + "'");
                }
                requested |= 1L << index;
            }
        }
        pending.presentInputs = present;
        pending.requestedOutputs = requested;
        pending.batchSize = batching ? (int)Math.max(1, batchSize) : 1;
    }

    /** Checks the shape of request input {@code i} against configured input {@code c}; returns its batch size. */
    private long checkShape(final InferenceRequest request, final int i, final int c)
    {
        final long[] dims = inputDims[c];
        final int rank = request.inputRank(i);
        final int offset = batching ? 1 : 0;
        boolean ok = rank == dims.length + offset;
        for (int d = 0; ok && d < rank; d++)
        {
            final long actual = request.inputDim(i, d);
            if (actual < 0)
            {
                ok = false;
            }
            else if (d >= offset && dims[d - offset] != -1 && dims[d - offset] != actual)
            {
                ok = false;
            }
        }
        if (batching && ok && request.inputDim(i, 0) < 1)
        {
            throw invalid(request, "input '" + request.inputName(i) + "' for model '" + name
                + "' has batch size " + request.inputDim(i, 0) + "; it must be at least 1");
        }
        if (!ok)
        {
            final StringBuilder expected = new StringBuilder("[");
            if (batching)
            {
                expected.append("-1");
            }
            for (int d = 0; d < dims.length; d++)
            {
                if (d > 0 || batching)
                {
                    expected.append(',');
                }
                expected.append(dims[d]);
            }
            expected.append(']');
            throw invalid(request, "unexpected shape for input '" + request.inputName(i) + "' for model '" + name
                + "'. Expected " + expected + ", got " + Arrays.toString(request.inputShape(i))
                .replace(" ", "") + ".");
        }
        return batching ? request.inputDim(i, 0) : 1;
    }

    private void checkByteSize(final InferenceRequest request, final int i, final DataType type)
    {
        final MemorySegment data = request.inputData(i);
        if (data == null)
        {
            throw invalid(request, "input '" + request.inputName(i) + "' for model '" + name + "' has no data");
        }
        if (!data.scope().isAlive())
        {
            throw invalid(request, "input '" + request.inputName(i) + "' for model '" + name + "': its memory was"
                + " freed (the arena it came from is closed)");
        }
        if (!data.isAccessibleBy(NOT_THE_CALLER))
        {
            throw invalid(request, "input '" + request.inputName(i) + "' for model '" + name + "': its memory"
                + " belongs to a confined arena (Arena.ofConfined()), which only the thread that made it may read;"
                + " Ingot's instance threads read inputs, so allocate them from Arena.ofShared(), Arena.ofAuto() or"
                + " Arena.global()");
        }
        long elements = 1;
        for (int d = 0; d < request.inputRank(i); d++)
        {
            elements = Math.multiplyExact(elements, request.inputDim(i, d));
        }
        if (type != DataType.BYTES)
        {
            final long expected = elements * type.byteSize();
            if (data.byteSize() != expected)
            {
                throw invalid(request, "input byte size mismatch for input '" + request.inputName(i)
                    + "' for model '" + name + "'. Expected " + expected + ", got " + data.byteSize());
            }
            return;
        }
        long offset = 0;
        for (long e = 0; e < elements; e++)
        {
            if (offset + 4 > data.byteSize())
            {
                throw invalid(request, "BYTES input '" + request.inputName(i) + "' for model '" + name
                    + "' holds fewer than the " + elements + " elements its shape says");
            }
            offset += 4L + Integer.toUnsignedLong(data.get(LENGTH_PREFIX, offset));
            if (offset > data.byteSize())
            {
                throw invalid(request, "BYTES input '" + request.inputName(i) + "' for model '" + name
                    + "' has an element longer than its data");
            }
        }
        if (offset != data.byteSize())
        {
            throw invalid(request, "BYTES input '" + request.inputName(i) + "' for model '" + name + "' has "
                + (data.byteSize() - offset) + " bytes after its " + elements + " elements");
        }
    }

    private int requiredInputs()
    {
        int required = 0;
        for (final boolean optional : inputOptional)
        {
            required += optional ? 0 : 1;
        }
        return required;
    }

    private String missingInputs(final int[] byConfig)
    {
        final List<String> missing = new ArrayList<>();
        for (int c = 0; c < byConfig.length; c++)
        {
            if (byConfig[c] < 0 && !inputOptional[c])
            {
                missing.add("'" + config.getInput(c).getName() + "'");
            }
        }
        return missing.toString();
    }

    private static InferenceException invalid(final InferenceRequest request, final String message)
    {
        final String id = request.id().isEmpty() ? "<id_unknown>" : request.id();
        return new InferenceException(ErrorCode.INVALID_ARG, "[request id: " + id + "] " + message);
    }
}
