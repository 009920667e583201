package io.ingot.ensemble;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.api.RequestLifecycle;
import io.ingot.api.RequestTrace;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.ResponseListener;
import io.ingot.tensor.DataType;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One ensemble request on its way through the steps (Triton's {@code EnsembleContext}). It holds each ensemble
 * tensor as a view: of the request's input memory, or of the output memory of the step response that wrote it,
 * which stays open (and so valid) until the ensemble's own response is closed. A step request reads those views;
 * nothing is copied between steps. The ensemble response's outputs are the producing steps' output memory too,
 * unless the request brings its own {@link ResponseAllocator} (shared memory, a frontend's buffers), into which
 * they are copied once, as Triton copies them.
 *
 * <p>Threads: step responses arrive on the composing models' threads, concurrently for parallel steps; the state
 * changes under this flight's lock, and steps are submitted and the response delivered outside it. When a step
 * fails, no further step starts; once the steps in flight have answered, the request fails once with Triton's
 * {@code in ensemble '<e>', <step's error>}.
 */
final class EnsembleFlight implements ResponseAllocator
{
    private static final Logger LOG = System.getLogger(EnsembleFlight.class.getName());

    private final EnsembleScheduler owner;
    private final EnsemblePlan plan;
    private final InferenceRequest request;
    private final ResponseListener listener;
    private final int batchSize;
    private final long requestedOutputs;
    private final long acceptedNs;

    private final DataType[] types;
    private final long[][] shapes;
    private final MemorySegment[] data;
    /** Per tensor: the batch size its producer ran with, 0 when the producer does not batch. */
    private final int[] tensorBatches;
    /** Per tensor: whether its memory is a step's output (else the request's input). */
    private final boolean[] fromStep;
    private final boolean[] ready;
    /** Per step: how many of its distinct input tensors are still missing. */
    private final int[] missing;
    private final InferenceRequest[] stepRequests;
    private final RequestTrace[] traces;
    private final int[] stepBatches;
    private final InferenceResponse[] stepResponses;
    /** Ensemble outputs that are views of step memory and not yet released by the response's owner. */
    private final AtomicInteger retained = new AtomicInteger();

    private int running;
    private InferenceException failure;
    private long firstStepNs;
    private long inputNs;
    private long inferNs;
    private long outputNs;

    EnsembleFlight(final EnsembleScheduler owner, final InferenceRequest request, final int batchSize,
        final long requestedOutputs, final ResponseListener listener)
    {
        this.owner = owner;
        this.plan = owner.plan();
        this.request = request;
        this.listener = listener;
        this.batchSize = batchSize;
        this.requestedOutputs = requestedOutputs;
        this.acceptedNs = owner.clock().nanoTime();
        final int tensors = plan.tensorNames().length;
        final int steps = plan.steps().length;
        this.types = new DataType[tensors];
        this.shapes = new long[tensors][];
        this.data = new MemorySegment[tensors];
        this.tensorBatches = new int[tensors];
        this.fromStep = new boolean[tensors];
        this.ready = new boolean[tensors];
        this.missing = new int[steps];
        for (int i = 0; i < steps; i++)
        {
            missing[i] = plan.steps()[i].distinctReads();
        }
        this.stepRequests = new InferenceRequest[steps];
        this.traces = new RequestTrace[steps];
        this.stepBatches = new int[steps];
        this.stepResponses = new InferenceResponse[steps];
    }

    /** Sets the ensemble inputs and launches every step they complete. */
    void start()
    {
        final int[] launch = new int[plan.steps().length];
        int count = 0;
        synchronized (this)
        {
            for (int i = 0; i < plan.inputTensors().length; i++)
            {
                final String name = plan.config().getInput(i).getName();
                final int index = inputIndex(name);
                if (index < 0)
                {
                    continue;  // an optional input left out: the steps reading it never run
                }
                final int t = plan.inputTensors()[i];
                types[t] = request.inputDataType(index);
                shapes[t] = request.inputShape(index);
                data[t] = request.inputData(index);
                tensorBatches[t] = plan.batching() && shapes[t].length > 0 ? (int) shapes[t][0] : 0;
                count = markReady(t, launch, count);
            }
            running = count;
        }
        if (count == 0)
        {
            finish();
            return;
        }
        firstStepNs = owner.clock().nanoTime();
        for (int i = 0; i < count; i++)
        {
            launch(launch[i]);
        }
    }

    private int inputIndex(final String name)
    {
        for (int i = 0; i < request.inputCount(); i++)
        {
            if (request.inputName(i).equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /** Marks a tensor ready and appends the steps it completes; under the lock. */
    private int markReady(final int tensor, final int[] launch, final int count)
    {
        int added = count;
        ready[tensor] = true;
        for (final int step : plan.consumers()[tensor])
        {
            if (--missing[step] == 0)
            {
                launch[added++] = step;
            }
        }
        return added;
    }

    /** Builds a step's request from the tensors it reads and submits it, through its limiter when there is one. */
    private void launch(final int index)
    {
        final EnsemblePlan.Step step = plan.steps()[index];
        final InferenceRequest stepRequest = new InferenceRequest(step.model()).modelVersion(step.version())
            .id(request.id()).priority(owner.stepPriority(index, request.priority()))
            .timeoutMicros(request.timeoutMicros());
        if (request.sequenceKey() != null)
        {
            stepRequest.sequence(request.sequenceKey(), request.sequenceStart(), request.sequenceEnd());
        }
        else if (request.sequenceId() != 0)
        {
            stepRequest.sequence(request.sequenceId(), request.sequenceStart(), request.sequenceEnd());
        }
        synchronized (this)
        {
            for (int i = 0; i < step.inputNames().length; i++)
            {
                final int t = step.inputTensors()[i];
                final long[] shape = reshape(step.inputDims().get(i), step.batching(), tensorBatches[t], shapes[t]);
                stepRequest.addInput(step.inputNames()[i], types[t], shape, data[t]);
                if (i == 0)
                {
                    stepBatches[index] = step.batching() && shape.length > 0 ? (int) shape[0] : 0;
                }
            }
            traces[index] = new RequestTrace();
            stepRequests[index] = stepRequest;
        }
        for (final String output : step.outputNames())
        {
            stepRequest.requestOutput(output);
        }
        stepRequest.trace(traces[index]);
        final StepLimiter limiter = owner.limiter(index);
        if (limiter == null || limiter.tryAcquire(() -> submit(index, stepRequest)))
        {
            submit(index, stepRequest);
        }
    }

    private void submit(final int index, final InferenceRequest stepRequest)
    {
        try
        {
            owner.core().submit(stepRequest, response -> landed(index, response, null));
        }
        catch (final RuntimeException refused)
        {
            final InferenceException error = refused instanceof InferenceException inference ? inference
                : new InferenceException(ErrorCode.INTERNAL, String.valueOf(refused.getMessage()), refused);
            landed(index, null, error);
            return;
        }
        if (request.isCancelled())
        {
            stepRequest.cancel();
        }
    }

    /** A step answered ({@code response}) or could not be submitted ({@code refused}). */
    private void landed(final int index, final InferenceResponse response, final InferenceException refused)
    {
        final EnsemblePlan.Step step = plan.steps()[index];
        final int[] launch = new int[plan.steps().length];
        int count = 0;
        final boolean done;
        synchronized (this)
        {
            stepResponses[index] = response;
            final RequestTrace trace = traces[index];
            if (trace != null && trace.computeEndNs() != 0)
            {
                inputNs += trace.computeInputEndNs() - trace.computeStartNs();
                inferNs += trace.computeOutputStartNs() - trace.computeInputEndNs();
                outputNs += trace.computeEndNs() - trace.computeOutputStartNs();
            }
            final InferenceException error = refused != null ? refused : response.isOk() ? null : response.error();
            if (error != null)
            {
                fail(error.code(), error.getMessage(), error);
            }
            else if (failure == null)
            {
                count = accept(step, index, response, launch);
            }
            running += count - 1;
            done = running == 0;
        }
        final StepLimiter limiter = owner.limiter(index);
        if (limiter != null)
        {
            limiter.release();
        }
        for (int i = 0; i < count; i++)
        {
            launch(launch[i]);
        }
        if (done)
        {
            finish();
        }
    }

    /** Takes a successful step's outputs as ensemble tensors; under the lock. */
    private int accept(final EnsemblePlan.Step step, final int index, final InferenceResponse response,
        final int[] launch)
    {
        int count = 0;
        for (int i = 0; i < step.outputNames().length; i++)
        {
            final OutputTensor output = response.output(step.outputNames()[i]);
            if (output == null)
            {
                fail(ErrorCode.INTERNAL, "step " + index + " (model '" + step.model() + "') returned no output '"
                    + step.outputNames()[i] + "'", null);
                return 0;
            }
            final int t = step.outputTensors()[i];
            types[t] = output.dataType();
            shapes[t] = output.shape();
            data[t] = output.data();
            tensorBatches[t] = stepBatches[index];
            fromStep[t] = true;
            count = markReady(t, launch, count);
        }
        return count;
    }

    /** Records the first failure, with Triton's prefix; under the lock. */
    private void fail(final ErrorCode code, final String message, final Throwable cause)
    {
        if (failure == null)
        {
            failure = new InferenceException(code, "in ensemble '" + plan.name() + "', " + message, cause);
        }
    }

    /** Cancels the step requests in flight (the ensemble request's cancel hook; any thread). */
    void cancelSteps()
    {
        final InferenceRequest[] launched;
        synchronized (this)
        {
            launched = stepRequests.clone();
        }
        for (int i = 0; i < launched.length; i++)
        {
            if (launched[i] != null)
            {
                launched[i].cancel();
            }
        }
    }

    /** Every step has answered: builds the response and delivers it. */
    private void finish()
    {
        final InferenceResponse response = owner.newResponse();
        ResponseAssembly.begin(response, request, plan.name(), owner.version());
        final long now;
        synchronized (this)
        {
            if (failure == null)
            {
                checkOutputsSet();
            }
            if (failure == null)
            {
                addOutputs(response);
            }
            if (failure != null)
            {
                ResponseAssembly.fail(response, failure);
            }
            now = owner.clock().nanoTime();
        }
        if (failure != null)
        {
            owner.stats().shared().requestFailed(now - acceptedNs, FailureReason.OTHER);
        }
        else
        {
            final long queueNs = firstStepNs == 0 ? 0 : firstStepNs - acceptedNs;
            owner.stats().shared().batchExecuted(batchSize, inputNs, inferNs, outputNs,
                owner.clock().currentTimeMillis());
            owner.stats().shared().requestSucceeded(batchSize, now - acceptedNs, queueNs, inputNs, inferNs,
                outputNs);
        }
        if (retained.get() == 0)
        {
            closeStepResponses();
        }
        RequestLifecycle.endDroppingHook(request);  // the hook is this flight's: the request must not keep it
        owner.landed();
        try
        {
            listener.onResponse(response);
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of ensemble '" + plan.name() + "' threw", ex);
        }
    }

    private void checkOutputsSet()
    {
        for (int o = 0; o < plan.outputTensors().length; o++)
        {
            if ((requestedOutputs & (1L << o)) != 0 && !ready[plan.outputTensors()[o]])
            {
                failure = new InferenceException(ErrorCode.INVALID_ARG, "in ensemble '" + plan.name() + "', "
                    + "unexpected deadlock, at least one output is not set while no more ensemble steps can be made");
                return;
            }
        }
    }

    private void addOutputs(final InferenceResponse response)
    {
        final ResponseAllocator own = request.responseAllocator();
        for (int o = 0; o < plan.outputTensors().length; o++)
        {
            if ((requestedOutputs & (1L << o)) == 0)
            {
                continue;
            }
            final int t = plan.outputTensors()[o];
            final String name = plan.config().getOutput(o).getName();
            final long[] shape = reshape(plan.outputDims().get(o), plan.batching(), tensorBatches[t], shapes[t]);
            final MemorySegment bytes = data[t];
            if (own == null && fromStep[t])
            {
                retained.incrementAndGet();
                ResponseAssembly.addOutput(response, name, types[t], shape, shape.length, bytes, bytes, this);
            }
            else
            {
                final MemorySegment target = own != null ? own.allocate(name, types[t], shape, bytes.byteSize())
                    : MemorySegment.ofArray(new byte[(int) bytes.byteSize()]);
                if (target == null || target.byteSize() < bytes.byteSize())
                {
                    failure = new InferenceException(ErrorCode.INTERNAL, "in ensemble '" + plan.name() + "', the "
                        + "response allocator returned " + (target == null ? "no memory" : target.byteSize()
                        + " bytes") + " for output '" + name + "', which needs " + bytes.byteSize() + " bytes");
                    return;
                }
                MemorySegment.copy(bytes, 0, target, 0, bytes.byteSize());
                ResponseAssembly.addOutput(response, name, types[t], shape, shape.length,
                    target.asSlice(0, bytes.byteSize()), target, own);
            }
        }
    }

    /**
     * Triton's {@code ReshapeTensorDims}: adds or strips a batch dimension of 1 where a tensor passes between a
     * batching and a non-batching model (or the ensemble) whose dims otherwise agree.
     */
    static long[] reshape(final List<Long> configDims, final boolean configBatching, final int tensorBatch,
        final long[] dims)
    {
        if (configBatching == (tensorBatch != 0))
        {
            return dims;
        }
        if (configBatching)
        {
            if (compatible(configDims, dims, 0))
            {
                final long[] batched = new long[dims.length + 1];
                batched[0] = 1;
                System.arraycopy(dims, 0, batched, 1, dims.length);
                return batched;
            }
            return dims;
        }
        if (tensorBatch == 1 && !compatible(configDims, dims, 0))
        {
            return Arrays.copyOfRange(dims, 1, dims.length);
        }
        return dims;
    }

    private static boolean compatible(final List<Long> configDims, final long[] dims, final int from)
    {
        if (configDims.size() != dims.length - from)
        {
            return false;
        }
        for (int i = 0; i < configDims.size(); i++)
        {
            final long expected = configDims.get(i);
            if (expected != -1 && expected != dims[from + i])
            {
                return false;
            }
        }
        return true;
    }

    private void closeStepResponses()
    {
        final InferenceResponse[] held;
        synchronized (this)
        {
            held = stepResponses.clone();
            Arrays.fill(stepResponses, null);
        }
        for (final InferenceResponse response : held)
        {
            if (response != null)
            {
                response.close();
            }
        }
    }

    /** Never called: the ensemble response's outputs that are step memory need no allocation. */
    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        throw new UnsupportedOperationException("an ensemble flight only releases the step memory it lends");
    }

    /** The ensemble response's owner released one output that is step memory; the last one closes the steps. */
    @Override
    public void release(final MemorySegment memory)
    {
        if (retained.decrementAndGet() == 0)
        {
            closeStepResponses();
        }
    }
}
