package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.cache.ResponseCache;
import io.ingot.api.RateLimitMode;
import io.ingot.ratelimit.RateLimiter;
import io.ingot.repository.BackendAutoCompleter;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.IdleMode;
import io.ingot.api.BatchListener;
import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ModelMetadata;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;
import io.ingot.api.ServerMetadata;
import io.ingot.api.TensorMetadata;
import io.ingot.repository.BackendRegistry;
import io.ingot.agent.AgentRunner;
import io.ingot.agent.BackoffIdleStrategy;
import io.ingot.agent.IdleStrategy;
import io.ingot.agent.ThreadBell;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.cuda.NativeAccess;
import io.ingot.metrics.CustomMetrics;
import io.ingot.device.CudaDevice;
import io.ingot.dispatch.Timekeeper;
import io.ingot.device.PinnedAllocator;
import io.ingot.device.PinnedAllocators;
import io.ingot.time.NanoClock;
import io.ingot.instance.PooledResponseAllocator;
import io.ingot.instance.ResponsePool;

import java.lang.System.Logger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * The implementation of {@link InferenceCore}: the model table (each name's {@link ModelSlot}, each version with its
 * own scheduler and instances), the submission of a request to the version it names ({@link #submit}), and the
 * queries on the table (readiness, metadata, statistics). Loading is {@link ModelLoader}'s, model control
 * {@link ModelController}'s and {@link RepositoryPoll}'s, the index {@link RepositoryIndex}'s; the core owns the
 * model-control lock they share and the timekeeper thread. Thread-safe: requests read the table without a lock.
 */
public final class Core implements InferenceCore
{
    private static final Logger LOG = System.getLogger(Core.class.getName());

    private final CoreOptions options;
    private final ConcurrentHashMap<String, ModelSlot> models = new ConcurrentHashMap<>();
    /** The model-control lock: every change of the model table, and the start and stop of the poller. */
    private final Object loadLock = new Object();
    private final Timekeeper timekeeper;
    private final AgentRunner timekeeperRunner;
    private final ModelLoader loader;
    private final ModelController controller;
    private final RepositoryPoll poll;
    private final RepositoryIndex index;
    private final CustomMetrics customMetrics = new CustomMetrics();
    private RepositoryPoller poller;
    private volatile boolean closed;

    private Core(final CoreOptions options)
    {
        this.options = options;
        final BackendRegistry backends = new BackendRegistry(options.backends());
        final BackendAutoCompleter completer = backends.autoCompleter(options.autoCompleteConfig());
        final ResponseCache cache = options.responseCacheBytes() > 0 ? new ResponseCache(options.responseCacheBytes())
            : null;
        final RateLimiter rateLimiter = options.rateLimitMode() == RateLimitMode.EXECUTION_COUNT
            ? new RateLimiter(options.rateLimitResources()) : null;
        final PinnedAllocator pinnedAllocator = options.pinnedAllocator() != null ? options.pinnedAllocator()
            : PinnedAllocators.automatic();
        final ResponseAllocator defaultAllocator = options.responseAllocator() != null ? options.responseAllocator()
            : new PooledResponseAllocator();
        final NormalizeContext normalizeContext = NormalizeContext.withGpus(PinnedAllocators.discovery().devices()
            .stream().map(CudaDevice::index).toList());
        final ThreadBell timekeeperBell = new ThreadBell();
        this.timekeeper = new Timekeeper(timekeeperBell, options.clock());
        // The timekeeper never spins without end, not even under SPINNING: it has no caller waiting on it and wakes
        // rarely, and a third spinning thread beside the instances and their callers would take a core from them.
        final IdleStrategy idle = switch (options.idleMode())
        {
            case SPINNING, BACKOFF -> BackoffIdleStrategy.backoff(timekeeperBell, timekeeper::hasDueWork);
            case BLOCKING -> BackoffIdleStrategy.blocking(timekeeperBell, timekeeper::hasDueWork);
        };
        this.timekeeperRunner = new AgentRunner(timekeeper, idle, true);
        timekeeperRunner.start();
        this.loader = new ModelLoader(this, options, models, loadLock, backends, completer, normalizeContext,
            pinnedAllocator, defaultAllocator, new ResponsePool(), timekeeper, cache, rateLimiter);
        this.controller = new ModelController(this, options, models, loadLock, loader,
            new LoadCandidates(options, completer, normalizeContext));
        this.poll = new RepositoryPoll(this, options, models, loadLock, completer, normalizeContext, loader,
            controller);
        this.index = new RepositoryIndex(models, options.repositories());
    }

    /**
     * Builds a core and loads its models.
     *
     * @param options core options
     * @return the running core
     */
    public static InferenceCore open(final CoreOptions options)
    {
        // Before any binding's class initializer can fail with the JVM's bare IllegalCallerException.
        NativeAccess.requireAllowed();
        final Core core = new Core(options);
        final boolean polling = options.controlMode() == ModelControlMode.POLL && core.poll.takeBaseline();
        core.loader.loadAtStartup();
        if (options.exitOnError())
        {
            final List<String> failures = new TreeMap<>(core.models).values().stream()
                .filter(slot -> !slot.state().equals(ModelSlot.READY))
                .map(slot -> slot.name() + ": " + slot.reason())
                .toList();
            if (!failures.isEmpty())
            {
                core.close();
                throw new InferenceException(ErrorCode.INVALID_ARG, failures.size()
                    + " model(s) failed to load at start-up (exit on error): " + String.join("; ", failures));
            }
        }
        if (polling)
        {
            synchronized (core.loadLock)
            {
                if (!core.closed)
                {
                    core.poller = new RepositoryPoller(core.poll, options.repositoryPollSeconds());
                }
            }
        }
        return core;
    }

    private ServedVersion runtime(final String model, final long version)
    {
        final ModelSlot slot = model == null ? null : models.get(model);
        if (slot == null)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Request for unknown model: '" + model
                + "' is not found");
        }
        final ServedVersion runtime = slot.version(version);
        if (runtime == null)
        {
            if (slot.versions().isEmpty())
            {
                throw new InferenceException(ErrorCode.UNAVAILABLE, "Request for unknown model: '" + model
                    + "' has no available versions" + (slot.reason().isEmpty() ? "" : ": " + slot.reason()));
            }
            throw new InferenceException(ErrorCode.NOT_FOUND, "Request for unknown model: '" + model
                + "' version " + version + " is not found");
        }
        return runtime;
    }

    @Override
    public void submit(final InferenceRequest request, final ResponseListener listener)
    {
        route(request, listener, null, false);
    }

    @Override
    public void submitAndRun(final InferenceRequest request, final ResponseListener listener)
    {
        route(request, listener, null, true);
    }

    @Override
    public void submit(final InferenceRequest request, final ResponseStreamListener listener)
    {
        route(request, null, listener, false);
    }

    /**
     * Hands each run of consecutive requests for one model version to that version at once (one ring claim and one
     * fence for the run); a request that names no served model, or that a retiring version sent back, goes the single
     * request's way and, refused, gets its error through the batch.
     */
    @Override
    public void submit(final InferenceBatch batch, final BatchListener listener)
    {
        batch.submitThrough(listener, (requests, from, to) ->
        {
            final IntConsumer resend = i -> submitOne(requests, i);
            int i = from;
            while (i < to)
            {
                final InferenceRequest first = requests.request(i);
                final ServedVersion served;
                try
                {
                    served = accepting(first, listener);
                }
                catch (final RuntimeException refused)
                {
                    requests.refuse(i++, refused);
                    continue;
                }
                int end = i + 1;
                while (end < to && sameVersion(first, requests.request(end)))
                {
                    end++;
                }
                served.submitAll(requests, i, end, resend);
                i = end;
            }
        });
    }

    private void submitOne(final InferenceBatch batch, final int index)
    {
        try
        {
            route(batch.request(index), batch.listener(index), null, false);
        }
        catch (final RuntimeException refused)
        {
            batch.refuse(index, refused);
        }
    }

    private static boolean sameVersion(final InferenceRequest a, final InferenceRequest b)
    {
        return a.modelVersion() == b.modelVersion() && Objects.equals(a.modelName(), b.modelName());
    }

    /**
     * Hands a request to the version it names, or to the one that replaced it if a reload raced the hand-over; with
     * {@code run}, a listener's request runs on this thread when an instance is idle ({@link #submitAndRun}).
     */
    private void route(final InferenceRequest request, final ResponseListener listener,
        final ResponseStreamListener stream, final boolean run)
    {
        ServedVersion served = accepting(request, stream != null ? stream : listener);
        while (true)
        {
            try
            {
                if (stream != null)
                {
                    served.submit(request, stream);
                }
                else if (run)
                {
                    served.submitAndRun(request, listener);
                }
                else
                {
                    served.submit(request, listener);
                }
                return;
            }
            catch (final InferenceException refused)
            {
                served = replacementOf(served, request, refused);
            }
        }
    }

    /**
     * A request refused by a version that a reload replaced meanwhile (it looked the version up just before the
     * switch) goes to the version that serves now, so that a reload loses no request. Any other refusal stands.
     *
     * @return the version that replaced {@code refusing}
     * @throws InferenceException {@code refused}, when {@code refusing} still serves or nothing replaced it
     */
    private ServedVersion replacementOf(final ServedVersion refusing, final InferenceRequest request,
        final InferenceException refused)
    {
        if (refusing.isReady() || closed)
        {
            throw refused;
        }
        final ModelSlot slot = models.get(request.modelName());
        final ServedVersion now = slot == null ? null : slot.version(request.modelVersion());
        if (now == null || now == refusing)
        {
            throw refused;
        }
        return now;
    }

    /** @return the model version that takes the request, after the checks both submit forms make */
    private ServedVersion accepting(final InferenceRequest request, final Object listener)
    {
        if (listener == null)
        {
            throw new IllegalArgumentException("a response listener is required");
        }
        if (closed)
        {
            throw new InferenceException(ErrorCode.UNAVAILABLE, "Server is stopping");
        }
        return runtime(request.modelName(), request.modelVersion());
    }

    @Override
    public CompletableFuture<InferenceResponse> submit(final InferenceRequest request)
    {
        final CompletableFuture<InferenceResponse> future = new CompletableFuture<>();
        submit(request, future::complete);
        return future;
    }

    @Override
    public IdleMode idleMode()
    {
        return options.idleMode();
    }

    @Override
    public NanoClock clock()
    {
        return options.clock();
    }

    @Override
    public CustomMetrics customMetrics()
    {
        return customMetrics;
    }

    @Override
    public ServerMetadata serverMetadata()
    {
        return new ServerMetadata(options.serverName(), options.serverVersion(),
            List.of("model_repository", "schedule_policy", "model_configuration", "statistics", "sequence",
                "sequence(string_id)"));
    }

    @Override
    public boolean isLive()
    {
        return !closed;
    }

    @Override
    public boolean isReady()
    {
        if (closed)
        {
            return false;
        }
        if (!options.strictReadiness())
        {
            return true;
        }
        for (final ModelSlot slot : models.values())
        {
            if (!slot.state().equals(ModelSlot.READY))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isModelReady(final String model, final long version)
    {
        final ModelSlot slot = model == null ? null : models.get(model);
        if (slot == null)
        {
            return false;
        }
        final ServedVersion runtime = slot.version(version);
        return runtime != null && runtime.isReady();
    }

    @Override
    public ModelMetadata modelMetadata(final String model, final long version)
    {
        final ServedVersion runtime = runtime(model, version);
        final ModelConfig config = runtime.config();
        final boolean batching = config.getMaxBatchSize() > 0;
        final List<TensorMetadata> inputs = new ArrayList<>();
        for (final ModelInput input : config.getInputList())
        {
            inputs.add(new TensorMetadata(input.getName(), DataType.fromConfigNumber(input.getDataTypeValue()),
                metadataShape(input.getDimsList(), batching)));
        }
        final List<TensorMetadata> outputs = new ArrayList<>();
        for (final ModelOutput output : config.getOutputList())
        {
            outputs.add(new TensorMetadata(output.getName(), DataType.fromConfigNumber(output.getDataTypeValue()),
                metadataShape(output.getDimsList(), batching)));
        }
        final List<String> versions = models.get(model).versions().keySet().stream().map(String::valueOf).toList();
        final String platform = config.getPlatform().isEmpty() ? config.getBackend() : config.getPlatform();
        return new ModelMetadata(model, versions, platform, inputs, outputs);
    }

    private static List<Long> metadataShape(final List<Long> dims, final boolean batching)
    {
        final List<Long> shape = new ArrayList<>(dims.size() + 1);
        if (batching)
        {
            shape.add(-1L);
        }
        shape.addAll(dims);
        return List.copyOf(shape);
    }

    @Override
    public ModelConfig modelConfig(final String model, final long version)
    {
        return runtime(model, version).config();
    }

    @Override
    public List<String> outputLabels(final String model, final long version, final String output)
    {
        return runtime(model, version).outputLabels(output);
    }

    @Override
    public List<ModelStatistics> modelStatistics(final String model, final long version)
    {
        final List<ModelStatistics> result = new ArrayList<>();
        if (model == null || model.isEmpty())
        {
            for (final ModelSlot slot : new TreeMap<>(models).values())
            {
                slot.versions().values().forEach(runtime -> result.add(runtime.statistics()));
            }
            return result;
        }
        if (version == InferenceRequest.DEFAULT_VERSION)
        {
            final ModelSlot slot = models.get(model);
            if (slot == null)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "Request for unknown model: '" + model
                    + "' is not found");
            }
            slot.versions().values().forEach(runtime -> result.add(runtime.statistics()));
            return result;
        }
        result.add(runtime(model, version).statistics());
        return result;
    }

    @Override
    public List<ModelIndexEntry> repositoryIndex(final boolean readyOnly)
    {
        return index.index(readyOnly);
    }

    @Override
    public void loadModel(final String model, final ModelLoadOverrides overrides)
    {
        controller.load(model, overrides);
    }

    @Override
    public void unloadModel(final String model, final boolean unloadDependents)
    {
        controller.unload(model, unloadDependents);
    }

    /** @throws InferenceException UNAVAILABLE once the core is closing */
    void requireOpen()
    {
        if (closed)
        {
            throw new InferenceException(ErrorCode.UNAVAILABLE, "Server is stopping");
        }
    }

    /** @return whether the core is closing or closed */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * Diagnostic: the number of a model version's requests that were accepted and are not yet in a batch or answered
     * (waiting in its intake ring or its queues). Zero once everything submitted has been batched or answered.
     *
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @return the queued requests
     */
    public long queuedRequests(final String model, final long version)
    {
        return runtime(model, version).queuedRequests();
    }

    @Override
    public void close()
    {
        final RepositoryPoller stopping;
        synchronized (loadLock)
        {
            stopping = poller;
            poller = null;
        }
        // Outside the lock: a poll under way takes it to finish its load.
        if (stopping != null)
        {
            stopping.close();
        }
        synchronized (loadLock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            for (final ModelSlot slot : models.values())
            {
                slot.versions().values().forEach(ServedVersion::stop);
            }
            controller.close();
            timekeeper.close();
            timekeeperRunner.join();
        }
    }
}
