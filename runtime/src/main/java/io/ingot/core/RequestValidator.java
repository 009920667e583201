package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.RequestLifecycle;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.scheduler.ShapeKey;
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

    /** Triton's note after a shape mismatch of a batching model (core src/infer_request.cc). */
    private static final String IMPLICIT_BATCH_NOTE = "NOTE: Setting a non-zero max_batch_size in the model config "
        + "requires a batch dimension to be prepended to each input shape. If you want to specify the full shape "
        + "including the batch dim in your input dims config, try setting max_batch_size to zero. See the model "
        + "configuration docs for more info on max_batch_size.";

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
    private final int requiredInputs;
    /** Packs each valid request's batching shape for the role holder (the rules of the model's scheduler). */
    private final ShapeKey shapeKey;

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
        this.shapeKey = new ShapeKey(SchedulerSettings.of(config), batching);
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
        int required = 0;
        for (final boolean optional : inputOptional)
        {
            required += optional ? 0 : 1;
        }
        requiredInputs = required;
    }

    /**
     * @param request a request about to be submitted (submitting thread)
     * @return the core's bookkeeping attached to it by an earlier submission, or a new one, now attached
     */
    static PendingRequest bookkeepingOf(final InferenceRequest request)
    {
        if (RequestLifecycle.attachment(request) instanceof PendingRequest attached)
        {
            return attached;
        }
        final PendingRequest pending = new PendingRequest();
        RequestLifecycle.attach(request, pending);
        return pending;
    }

    /**
     * Checks a request against the configuration and fills in the bookkeeping the scheduler needs: each configured
     * input's index in the request, the set of inputs present, the outputs to return, and the batch size.
     *
     * <p>The checks run in the order Triton's core runs them (core src/infer_request.cc {@code Normalize}):
     * requested outputs, the number of inputs, each input's name and batch dimension, the batch-size limit, then
     * each input's datatype, shape and byte size. Each message is Triton's; where Ingot adds detail, it follows.
     *
     * @param request the request
     * @param pending its bookkeeping, filled in
     * @throws InferenceException INVALID_ARG naming the model, the tensor and what was expected
     */
    void validate(final InferenceRequest request, final PendingRequest pending)
    {
        final long requested = requestedOutputs(request);
        final int configInputs = inputTypes.length;
        final int given = request.inputCount();
        if (given > configInputs || given < requiredInputs)
        {
            throw invalid(request, inputCountMessage(request));
        }
        pending.ensureInputCapacity(configInputs);
        final int[] byConfig = pending.inputIndexByConfig;
        for (int i = 0; i < configInputs; i++)
        {
            byConfig[i] = -1;
        }
        long present = 0;
        long batchSize = -1;
        for (int i = 0; i < given; i++)
        {
            final String inputName = request.inputName(i);
            final Integer index = inputName == null ? null : inputIndex.get(inputName);
            if (index == null)
            {
                throw invalid(request, "unexpected inference input '" + inputName + "' for model '" + name + "'");
            }
            if (byConfig[index] >= 0)
            {
                throw invalid(request, "input '" + inputName + "' already exists in request (model '" + name
                    + "')");
            }
            byConfig[index] = i;
            present |= 1L << index;
            if (batching)
            {
                if (request.inputRank(i) == 0)
                {
                    throw invalid(request, "input '" + inputName + "' has no shape but model requires batch "
                        + "dimension for '" + name + "'");
                }
                final long inputBatch = request.inputDim(i, 0);
                if (batchSize < 0)
                {
                    batchSize = inputBatch;
                }
                else if (batchSize != inputBatch)
                {
                    throw invalid(request, "input '" + inputName + "' batch size does not match other inputs for '"
                        + name + "' (it has " + inputBatch + ", an earlier input " + batchSize + ")");
                }
            }
        }
        if (batching && batchSize > maxBatchSize)
        {
            throw invalid(request, "inference request batch-size must be <= " + maxBatchSize + " for '" + name
                + "'");
        }
        for (int index = 0; index < configInputs; index++)
        {
            final int i = byConfig[index];
            if (i < 0)
            {
                continue;
            }
            final DataType expected = inputTypes[index];
            if (request.inputDataType(i) != expected)
            {
                throw invalid(request, "inference input '" + request.inputName(i) + "' data-type is '"
                    + request.inputDataType(i) + "', but model '" + name + "' expects '" + expected + "'");
            }
            checkShape(request, i, index);
            checkByteSize(request, i, expected);
        }
        for (int c = 0; c < configInputs; c++)
        {
            if (byConfig[c] < 0 && !inputOptional[c])
            {
                // Right count, but an optional input stands in for a required one (Triton checks only counts).
                throw invalid(request, inputCountMessage(request));
            }
        }
        pending.presentInputs = present;
        pending.requestedOutputs = requested;
        pending.batchSize = batching ? (int)Math.max(1, batchSize) : 1;
        pending.shapeKey = shapeKey.of(request, byConfig);
    }

    private long requestedOutputs(final InferenceRequest request)
    {
        if (request.requestedOutputCount() == 0)
        {
            return allOutputs;
        }
        long requested = 0;
        for (int i = 0; i < request.requestedOutputCount(); i++)
        {
            final String outputName = request.requestedOutput(i);
            final Integer index = outputIndex.get(outputName);
            if (index == null)
            {
                throw invalid(request, "unexpected inference output '" + outputName + "' for model '" + name + "'");
            }
            requested |= 1L << index;
        }
        return requested;
    }

    /** Triton's message for a wrong number of inputs (core src/infer_request.cc ValidateRequestInputs). */
    private String inputCountMessage(final InferenceRequest request)
    {
        final List<String> got = new ArrayList<>();
        for (int i = 0; i < request.inputCount(); i++)
        {
            got.add("'" + request.inputName(i) + "'");
        }
        final List<String> missing = new ArrayList<>();
        for (int c = 0; c < inputTypes.length; c++)
        {
            final String input = config.getInput(c).getName();
            if (!inputOptional[c] && !hasInput(request, input))
            {
                missing.add("'" + input + "'");
            }
        }
        final String expected = requiredInputs == inputTypes.length ? "expected " + inputTypes.length + " inputs"
            : "expected number of inputs between " + requiredInputs + " and " + inputTypes.length;
        return expected + " but got " + request.inputCount() + " inputs for model '" + name + "'. Got input(s) "
            + list(got) + ", but missing required input(s) " + list(missing) + ". Please provide all required "
            + "input(s).";
    }

    private static boolean hasInput(final InferenceRequest request, final String input)
    {
        for (int i = 0; i < request.inputCount(); i++)
        {
            if (input.equals(request.inputName(i)))
            {
                return true;
            }
        }
        return false;
    }

    /** Triton's list rendering: {@code ['a','b']}, {@code []} when empty. */
    private static String list(final List<String> items)
    {
        return "[" + String.join(",", items) + "]";
    }

    /** Checks the shape of request input {@code i} against configured input {@code c}. */
    private void checkShape(final InferenceRequest request, final int i, final int c)
    {
        final long[] dims = inputDims[c];
        final int rank = request.inputRank(i);
        final int offset = batching ? 1 : 0;
        boolean ok = rank == dims.length + offset;
        for (int d = offset; ok && d < rank; d++)
        {
            final long actual = request.inputDim(i, d);
            if (actual == -1)
            {
                throw invalid(request, "All input dimensions should be specified for input '" + request.inputName(i)
                    + "' for model '" + name + "', got " + shapeText(request, i));
            }
            if (actual < 0 || (dims[d - offset] != -1 && dims[d - offset] != actual))
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
                + "'. Expected " + expected + ", got " + shapeText(request, i) + ". "
                + (batching ? IMPLICIT_BATCH_NOTE : ""));
        }
    }

    private static String shapeText(final InferenceRequest request, final int i)
    {
        return Arrays.toString(request.inputShape(i)).replace(" ", "");
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
            final long expected = Math.multiplyExact(elements, type.byteSize());
            if (data.byteSize() != expected)
            {
                throw invalid(request, "input byte size mismatch for input '" + request.inputName(i)
                    + "' for model '" + name + "'. Expected " + expected + ", got " + data.byteSize());
            }
            return;
        }
        checkBytesElements(request, i, data, elements);
    }

    /** Walks the length prefixes of a BYTES input as Triton does (core src/infer_request.cc ValidateBytesInputs). */
    private void checkBytesElements(final InferenceRequest request, final int i, final MemorySegment data,
        final long elements)
    {
        final String input = request.inputName(i);
        final long size = data.byteSize();
        long offset = 0;
        long checked = 0;
        while (offset < size)
        {
            if (size - offset < Integer.BYTES)
            {
                throw invalid(request, "incomplete string length indicator for inference input '" + input
                    + "' for model '" + name + "', expecting " + Integer.BYTES + " bytes but only " + (size - offset)
                    + " bytes available. Please make sure the string length indicator is in one buffer.");
            }
            final long length = Integer.toUnsignedLong(data.get(LENGTH_PREFIX, offset));
            checked++;
            if (checked > elements)
            {
                throw invalid(request, "unexpected number of string elements " + checked + " for inference input '"
                    + input + "' for model '" + name + "', expecting " + elements);
            }
            offset += Integer.BYTES;
            if (length > size - offset)
            {
                // Triton lets a last element run past its data; Ingot refuses it, since a backend would read past.
                throw invalid(request, "element " + (checked - 1) + " of BYTES input '" + input + "' for model '"
                    + name + "' claims " + length + " bytes but only " + (size - offset) + " remain");
            }
            offset += length;
        }
        if (checked != elements)
        {
            throw invalid(request, "expected " + elements + " string elements for inference input '" + input
                + "' for model '" + name + "', got " + checked);
        }
    }

    private static InferenceException invalid(final InferenceRequest request, final String message)
    {
        final String id = request.id().isEmpty() ? "<id_unknown>" : request.id();
        return new InferenceException(ErrorCode.INVALID_ARG, "[request id: " + id + "] " + message);
    }
}
