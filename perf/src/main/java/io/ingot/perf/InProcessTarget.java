package io.ingot.perf;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelMetadata;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseListener;
import io.ingot.api.TensorMetadata;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A core in this process, opened on a model repository (perf_analyzer's C API mode): requests go through
 * {@link InferenceCore#submit(InferenceRequest, ResponseListener)} with no network, and statistics come straight
 * from the core. Each client reuses one request and one listener, so the load generator adds no allocation of its
 * own to the core's path.
 */
public final class InProcessTarget implements LoadTarget
{
    private final InferenceCore core;
    private final boolean ownsCore;
    private final String repository;
    private final String model;
    private final long version;
    private final Arena arena = Arena.ofShared();
    private RequestInputs inputs;
    private MemorySegment[] data;
    private ResponseAllocator outputs;

    /**
     * Opens a core on a repository; the model must load. {@link #close()} closes the core.
     *
     * @param repository the model repository
     * @param model      the model to drive
     * @param version    its version, {@code ""} for the default
     * @param idleMode   how the core's threads wait
     * @throws PerfException when the repository does not exist, or the model is absent or failed to load
     */
    public InProcessTarget(final Path repository, final String model, final String version, final IdleMode idleMode)
    {
        this(open(repository, idleMode), true, repository.toString(), model, version);
    }

    /**
     * Drives a model of a core that someone else opened and closes (so that other targets can serve the same core
     * over the network at the same time). {@link #close()} leaves the core open.
     *
     * @param core       the open core
     * @param repository where its models come from, for messages and reports
     * @param model      the model to drive
     * @param version    its version, {@code ""} for the default
     * @throws PerfException when the model is absent or not ready
     */
    public InProcessTarget(final InferenceCore core, final String repository, final String model,
        final String version)
    {
        this(core, false, repository, model, version);
    }

    private InProcessTarget(final InferenceCore core, final boolean ownsCore, final String repository,
        final String model, final String version)
    {
        this.core = core;
        this.ownsCore = ownsCore;
        this.repository = repository;
        this.model = model;
        try
        {
            this.version = parseVersion(version);
            if (!core.isModelReady(model, this.version))
            {
                throw PerfException.failure(whyNotReady());
            }
        }
        catch (final PerfException ex)
        {
            if (ownsCore)
            {
                core.close();
            }
            throw ex;
        }
    }

    private static InferenceCore open(final Path repository, final IdleMode idleMode)
    {
        if (!Files.isDirectory(repository))
        {
            throw PerfException.usage("--model-repository " + repository + " is not a directory");
        }
        try
        {
            return InferenceCore.open(CoreOptions.builder().modelRepository(repository).idleMode(idleMode).build());
        }
        catch (final InferenceException ex)
        {
            throw PerfException.failure("cannot open model repository " + repository + ": " + ex.getMessage(), ex);
        }
    }

    private static long parseVersion(final String version)
    {
        if (version == null || version.isEmpty())
        {
            return InferenceRequest.DEFAULT_VERSION;
        }
        try
        {
            return Long.parseLong(version);
        }
        catch (final NumberFormatException ex)
        {
            throw PerfException.usage("-x/--model-version must be a whole number, got '" + version + "'");
        }
    }

    private String whyNotReady()
    {
        final List<ModelIndexEntry> index = core.repositoryIndex(false);
        for (final ModelIndexEntry entry : index)
        {
            if (entry.name().equals(model) && !entry.reason().isEmpty())
            {
                return "model '" + model + "' in " + repository + " is not ready: " + entry.reason();
            }
        }
        if (index.stream().anyMatch(entry -> entry.name().equals(model)))
        {
            return "model '" + model + "' version " + version + " is not loaded from " + repository;
        }
        return "model '" + model + "' is not in the repository " + repository + " (models there: "
            + index.stream().map(ModelIndexEntry::name).distinct().toList() + ")";
    }

    @Override
    public String describe()
    {
        return "in-process core (" + repository + ")";
    }

    @Override
    public ModelInfo modelInfo()
    {
        final ModelMetadata metadata = core.modelMetadata(model, version);
        final ModelConfig config = core.modelConfig(model, version);
        return new ModelInfo(config.getMaxBatchSize(), metadata.inputs(),
            metadata.outputs().stream().map(TensorMetadata::name).toList());
    }

    @Override
    public void prepare(final RequestInputs requestInputs)
    {
        this.inputs = requestInputs;
        data = new MemorySegment[requestInputs.inputs().size()];
        for (int i = 0; i < data.length; i++)
        {
            final byte[] bytes = requestInputs.inputs().get(i).data();
            data[i] = arena.allocate(Math.max(1, bytes.length), 64).asSlice(0, bytes.length);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, data[i], 0, bytes.length);
        }
    }

    /**
     * Makes the requests of clients made from now on take their output memory from {@code allocator} instead of the
     * core's default (as an application that brings its own allocator does).
     *
     * @param allocator the allocator, or {@code null} for the core's default
     * @return this
     */
    public InProcessTarget responseAllocator(final ResponseAllocator allocator)
    {
        this.outputs = allocator;
        return this;
    }

    @Override
    public LoadClient newClient()
    {
        if (inputs == null)
        {
            throw new IllegalStateException("prepare() must be called before clients are made");
        }
        final InferenceRequest request = new InferenceRequest(model).modelVersion(version).responseAllocator(outputs);
        for (int i = 0; i < data.length; i++)
        {
            final RequestInputs.Tensor tensor = inputs.inputs().get(i);
            request.addInput(tensor.name(), tensor.dataType(), tensor.shape(), data[i]);
        }
        return new Client(core, request);
    }

    @Override
    public ServerCounters counters()
    {
        long inferences = 0;
        long executions = 0;
        long successes = 0;
        long requestNs = 0;
        long queueNs = 0;
        long inputNs = 0;
        long inferNs = 0;
        long outputNs = 0;
        for (final ModelStatistics stats : core.modelStatistics(model, version))
        {
            inferences += stats.inferenceCount();
            executions += stats.executionCount();
            successes += stats.inferenceStats().success().count();
            requestNs += stats.inferenceStats().success().ns();
            queueNs += stats.inferenceStats().queue().ns();
            inputNs += stats.inferenceStats().computeInput().ns();
            inferNs += stats.inferenceStats().computeInfer().ns();
            outputNs += stats.inferenceStats().computeOutput().ns();
        }
        return new ServerCounters(inferences, executions, successes, requestNs, queueNs, inputNs, inferNs, outputNs);
    }

    @Override
    public void close()
    {
        if (ownsCore)
        {
            core.close();
        }
        arena.close();
    }

    /** One reusable request with its listener; the caller waits by spinning briefly, then parking. */
    private static final class Client implements LoadClient, ResponseListener
    {
        private static final int SPINS = 128;

        private final InferenceCore core;
        private final InferenceRequest request;
        private volatile boolean done;
        private volatile Thread waiter;
        private volatile String error;
        private Sink sink;

        Client(final InferenceCore core, final InferenceRequest request)
        {
            this.core = core;
            this.request = request;
        }

        @Override
        public String call() throws InterruptedException
        {
            done = false;
            error = null;
            sink = null;
            try
            {
                core.submit(request, this);
            }
            catch (final InferenceException ex)
            {
                return ex.getMessage();
            }
            for (int i = 0; i < SPINS && !done; i++)
            {
                Thread.onSpinWait();
            }
            if (!done)
            {
                waiter = Thread.currentThread();
                while (!done)
                {
                    LockSupport.park(this);
                    if (Thread.interrupted())
                    {
                        waitUninterruptibly();
                        waiter = null;
                        throw new InterruptedException("interrupted while waiting for a response");
                    }
                }
                waiter = null;
            }
            return error;
        }

        /** The request may not be reused before its response arrived: wait for it even when interrupted. */
        private void waitUninterruptibly()
        {
            while (!done)
            {
                LockSupport.parkNanos(this, 1_000_000);
            }
        }

        @Override
        public void send(final Sink target)
        {
            done = false;
            error = null;
            sink = target;
            try
            {
                core.submit(request, this);
            }
            catch (final InferenceException ex)
            {
                sink = null;
                done = true;
                target.completed(ex.getMessage());
            }
        }

        @Override
        public void onResponse(final InferenceResponse response)
        {
            final String failure = response.isOk() ? null : response.error().getMessage();
            response.close();
            final Sink target = sink;
            error = failure;
            done = true;
            if (target != null)
            {
                target.completed(failure);
                return;
            }
            final Thread thread = waiter;
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
    }
}
