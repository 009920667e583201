package io.ingot.core;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.api.RequestLifecycle;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.ResponseListener;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.instance.InstanceHost;
import io.ingot.instance.ModelInstance;
import io.ingot.scheduler.Batcher;
import io.ingot.scheduler.PayloadQueue;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.RequestCompleter;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.stats.ModelStatsRecorder;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One loaded model version: its configuration, backend, batcher thread, instances, statistics, and the validation
 * of requests against its configuration.
 */
final class ModelRuntime implements InstanceHost, RequestCompleter
{
    private static final Logger LOG = System.getLogger(ModelRuntime.class.getName());
    private static final ValueLayout.OfInt LENGTH_PREFIX =
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final long version;
    private final ModelConfig config;
    private final Backend backend;
    private final ResponseAllocator defaultAllocator;
    private final ResponsePool responses;
    private final ModelStatsRecorder stats;
    private final PayloadQueue payloads;
    private final Batcher batcher;
    private final SchedulerSettings settings;
    private final OrderedDelivery ordered;
    private final List<Thread> threads = new ArrayList<>();
    private final List<ModelInstance> instances = new ArrayList<>();
    private final ManyToManyConcurrentArrayQueue<PendingRequest> pendingPool =
        new ManyToManyConcurrentArrayQueue<>(4096);

    private final Map<String, Integer> inputIndex = new HashMap<>();
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final DataType[] inputTypes;
    private final long[][] inputDims;
    private final boolean[] inputOptional;
    private final long allOutputs;
    private final boolean batching;
    private final int maxBatchSize;
    private final Thread batcherThread;

    ModelRuntime(final ModelContext context, final Backend backend, final ResponseAllocator defaultAllocator,
        final ResponsePool responses, final IdleMode idleMode, final int ringSize) throws Exception
    {
        this.name = context.modelName();
        this.version = context.version();
        this.config = context.config();
        this.backend = backend;
        this.defaultAllocator = defaultAllocator;
        this.responses = responses;
        this.batching = config.getMaxBatchSize() > 0;
        this.maxBatchSize = config.getMaxBatchSize();
        if (config.getOutputCount() > 63 || config.getInputCount() > 63)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "model '" + name
                + "' has more than 63 inputs or outputs, which Ingot does not support");
        }
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
        settings = SchedulerSettings.of(config);
        stats = new ModelStatsRecorder(settings.maxBatchSize());
        ordered = settings.preserveOrdering() ? new OrderedDelivery() : null;

        final List<InstanceContext> contexts = instanceContexts(context);
        final int active = (int)contexts.stream().filter(c -> c != null).count();
        final Runnable[] waker = new Runnable[1];
        payloads = new PayloadQueue(Math.max(1, active), settings.prefetch(), settings.maxBatchSize(),
            () -> waker[0].run());
        batcher = new Batcher(name, settings, ringSize, payloads, this, idleMode, batching);
        waker[0] = batcher.waker();

        final List<Engine> engines = new ArrayList<>();
        try
        {
            for (final InstanceContext instance : contexts)
            {
                final Engine engine = backend.createEngine(instance);
                engines.add(engine);
                instances.add(new ModelInstance(this, instance.name(), engine, context.allocator()));
            }
        }
        catch (final Exception ex)
        {
            for (final Engine engine : engines)
            {
                closeQuietly(engine);
            }
            throw ex;
        }
        batcherThread = Thread.ofPlatform().name("ingot-batcher-" + name + "-v" + version).daemon(true)
            .unstarted(batcher);
        for (final ModelInstance instance : instances)
        {
            threads.add(Thread.ofPlatform().name("ingot-instance-" + name + "-v" + version + "-" + instance.name())
                .daemon(true).unstarted(instance));
        }
        batcherThread.start();
        threads.forEach(Thread::start);
    }

    private List<InstanceContext> instanceContexts(final ModelContext context)
    {
        final List<InstanceContext> result = new ArrayList<>();
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            if (group.getPassive())
            {
                continue;
            }
            final boolean gpu = group.getKind() == ModelInstanceGroup.Kind.KIND_GPU;
            final List<Integer> devices = gpu ? group.getGpusList() : List.of(-1);
            for (final int device : devices)
            {
                for (int i = 0; i < group.getCount(); i++)
                {
                    final String instanceName = group.getName() + "_" + (gpu ? device + "_" : "") + i;
                    result.add(new InstanceContext(context, instanceName, result.size(), group.getKind(), device,
                        group.getProfileList()));
                }
            }
        }
        if (result.isEmpty())
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "model '" + name
                + "' has no instance that can receive work (every instance group is passive or empty)");
        }
        return result;
    }

    /**
     * Validates a request against the configuration and hands it to the scheduler.
     *
     * @throws InferenceException on any validation failure, a full queue, or a stopping scheduler
     */
    void submit(final InferenceRequest request, final ResponseListener listener)
    {
        PendingRequest pending = pendingPool.poll();
        if (pending == null)
        {
            pending = new PendingRequest();
        }
        try
        {
            validate(request, pending);
        }
        catch (final RuntimeException ex)
        {
            recycle(pending);
            throw ex;
        }
        if (!RequestLifecycle.begin(request, batcher.cancelHook()))
        {
            recycle(pending);
            throw new IllegalStateException("request '" + request.id() + "' for model '" + name
                + "' is already in flight; submit it again only after its response was delivered");
        }
        pending.request = request;
        pending.listener = listener;
        pending.acceptedNs = System.nanoTime();
        stats.requestAccepted();
        try
        {
            batcher.enqueue(pending);
        }
        catch (final RuntimeException ex)
        {
            stats.requestFailed(System.nanoTime() - pending.acceptedNs, FailureReason.REJECTED, true);
            RequestLifecycle.end(request);
            recycle(pending);
            throw ex;
        }
    }

    private void validate(final InferenceRequest request, final PendingRequest pending)
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
                + "'. Expected " + expected + ", got " + java.util.Arrays.toString(request.inputShape(i))
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

    @Override
    public void fail(final PendingRequest request, final ErrorCode code, final String message,
        final FailureReason reason)
    {
        final InferenceResponse response = openResponse(request);
        ResponseAssembly.fail(response, new InferenceException(code, message));
        stats.requestFailed(System.nanoTime() - request.acceptedNs, reason, true);
        // Requests ended by the scheduler never reserved an ordering slot: deliver directly.
        finish(request, response);
    }

    @Override
    public String modelName()
    {
        return name;
    }

    @Override
    public long version()
    {
        return version;
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public PayloadQueue payloads()
    {
        return payloads;
    }

    @Override
    public ModelStatsRecorder stats()
    {
        return stats;
    }

    @Override
    public InferenceResponse openResponse(final PendingRequest request)
    {
        final InferenceResponse response = responses.acquire();
        ResponseAssembly.begin(response, request.request, name, version);
        return response;
    }

    @Override
    public ResponseAllocator allocatorFor(final PendingRequest request)
    {
        final ResponseAllocator own = request.request.responseAllocator();
        return own != null ? own : defaultAllocator;
    }

    @Override
    public void deliver(final PendingRequest request, final InferenceResponse response)
    {
        if (ordered != null && request.orderSequence >= 0)
        {
            ordered.complete(request, response, this::finish);
        }
        else
        {
            finish(request, response);
        }
    }

    private void finish(final PendingRequest request, final InferenceResponse response)
    {
        final InferenceRequest userRequest = request.request;
        final ResponseListener listener = request.listener;
        recycle(request);
        RequestLifecycle.end(userRequest);
        try
        {
            listener.onResponse(response);
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of model '" + name + "' threw", ex);
        }
    }

    private void recycle(final PendingRequest pending)
    {
        pending.clear();
        pendingPool.offer(pending);
    }

    /** @return statistics of this version. */
    ModelStatistics statistics()
    {
        return stats.snapshot(name, Long.toString(version));
    }

    /** @return whether the version still accepts requests. */
    boolean isReady()
    {
        return !batcher.isStopping();
    }

    /** @return the batch size accepted and not yet in a batch. */
    long queuedBatchSize()
    {
        return batcher.queuedBatchSize();
    }


    /**
     * Stops: refuses new requests, answers queued ones UNAVAILABLE, lets formed batches execute, then releases the
     * instances and the backend.
     */
    void stop()
    {
        batcher.stop();
        join(batcherThread);
        payloads.stopInstances();
        threads.forEach(ModelRuntime::join);
        try
        {
            backend.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "closing backend of model '" + name + "' failed", ex);
        }
    }

    private static void join(final Thread thread)
    {
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        try
        {
            closeable.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "close failed", ex);
        }
    }
}
