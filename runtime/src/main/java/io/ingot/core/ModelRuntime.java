package io.ingot.core;

import io.ingot.agent.AgentRunner;
import io.ingot.api.DecoupledModelException;
import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.api.RequestLifecycle;
import io.ingot.api.RequestTrace;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.cache.CachedResponse;
import io.ingot.cache.ResponseCache;
import io.ingot.config.BatchingParameters;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelRateLimiter;
import io.ingot.dispatch.IdleStrategies;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Seat;
import io.ingot.dispatch.Timekeeper;
import io.ingot.instance.InstanceAgent;
import io.ingot.instance.InstanceHost;
import io.ingot.instance.ModelInstance;
import io.ingot.ratelimit.InstanceClaim;
import io.ingot.ratelimit.RateLimiter;
import io.ingot.scheduler.AdaptiveBatchPolicy;
import io.ingot.scheduler.AimdBatchPolicy;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.DefaultSchedulingPolicy;
import io.ingot.scheduler.SequencePolicies;
import io.ingot.scheduler.DynamicBatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.scheduler.NanoClock;
import io.ingot.scheduler.OrderedBatchPolicy;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.stats.ModelStatsRecorder;
import io.ingot.warmup.WarmupPlan;
import io.ingot.warmup.WarmupRunner;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.concurrent.TimeUnit;

/**
 * One loaded model version: its configuration, backend, scheduler, instances and statistics, the validation of its
 * requests, and the delivery of its responses. Requests go from the caller through the scheduler's intake ring to
 * the instance that runs them ({@link ModelScheduler}); responses are delivered from the instance's thread, in
 * dequeue order when the model preserves ordering. Each instance runs the configuration's {@code model_warmup} samples
 * ({@link WarmupRunner}) right after its engine is created and before any instance thread starts, so a version is
 * constructed, and so installed and reported ready, only after every instance warmed up; a failing sample fails the
 * construction. A request that carries a {@link RequestTrace} gets its timestamps recorded; others cost a null check.
 * A decoupled model's requests are accepted only with a {@link ResponseStreamListener}; their responses are
 * delivered as the engine sends them ({@link #deliverPartial}), the final through the same path as any response.
 * Thread-safe.
 */
final class ModelRuntime implements InstanceHost, ServedVersion
{
    private static final Logger LOG = System.getLogger(ModelRuntime.class.getName());

    /** How long a replaced version may take to run its queue out before the rest is answered UNAVAILABLE. */
    static final long RETIRE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final String name;
    private final long version;
    private final ModelConfig config;
    private final Backend backend;
    private final ResponseAllocator defaultAllocator;
    private final ResponsePool responses;
    private final ModelStatsRecorder stats;
    private final RequestValidator validator;
    /** The model's use of the response cache, or {@code null} when it has none or the core has no cache. */
    private final ResponseCaching caching;
    private final Path modelDirectory;
    /** The sequence batcher's request checks, or {@code null} for a model without one. */
    private final SequenceAdmission sequences;
    private final OutputLabels labels;
    private final ModelScheduler scheduler;
    private final Timekeeper timekeeper;
    private final OrderedDelivery ordered;
    /** {@code model_transaction_policy { decoupled: true }}: zero or many responses per request. */
    private final boolean decoupled;
    private final Runnable cancelHook;
    private final List<AgentRunner> runners = new ArrayList<>();
    /** Each instance's group's {@code rate_limiter}, by instance index (filled with the instance contexts). */
    private final List<ModelRateLimiter> rateLimits = new ArrayList<>();
    /** The instances' places at the core's rate limiter; empty when it is off. */
    private final List<InstanceClaim> claims = new ArrayList<>();

    ModelRuntime(final ModelContext context, final Backend backend, final ResponseAllocator defaultAllocator,
        final ResponsePool responses, final IdleMode idleMode, final int ringSize, final Timekeeper timekeeper,
        final ResponseCache cache, final RateLimiter rateLimiter)
        throws Exception
    {
        this.name = context.modelName();
        this.version = context.version();
        this.config = context.config();
        this.modelDirectory = context.versionDirectory() == null ? null : context.versionDirectory().getParent();
        this.backend = backend;
        this.defaultAllocator = defaultAllocator;
        this.responses = responses;
        this.timekeeper = timekeeper;
        this.decoupled = config.getModelTransactionPolicy().getDecoupled();
        if (config.getOutputCount() > 63 || config.getInputCount() > 63)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "model '" + name
                + "' has more than 63 inputs or outputs, which Ingot does not support");
        }
        this.validator = new RequestValidator(name, config);
        this.labels = OutputLabels.load(name, config, context.versionDirectory());
        final SchedulerSettings settings = SchedulerSettings.of(config);
        final LevelAdmission admission = new LevelAdmission(settings);
        final List<InstanceContext> contexts = instanceContexts(context);
        this.sequences = config.hasSequenceBatching() ? new SequenceAdmission(config) : null;
        final BatchPolicy chosen = policyOf(settings, admission, contexts.size());
        final BatchPolicy policy = settings.preserveOrdering() ? new OrderedBatchPolicy(chosen) : chosen;
        this.scheduler = new ModelScheduler(name, settings, policy, admission, ringSize, NanoClock.SYSTEM, timekeeper);
        this.ordered = settings.preserveOrdering() ? new OrderedDelivery(this::finish) : null;
        this.cancelHook = scheduler::requestSweep;

        this.stats = new ModelStatsRecorder(settings.maxBatchSize(), contexts.size(), this::queuedRequests);
        this.caching = cachingOf(cache);
        final List<Engine> engines = new ArrayList<>();
        final List<ModelInstance> instances = new ArrayList<>();
        final List<InstanceAgent> agents = new ArrayList<>();
        final Path versionDirectory = context.versionDirectory();
        try (WarmupPlan warmup = WarmupPlan.of(name, config,
            versionDirectory == null ? null : versionDirectory.getParent()))
        {
            final WarmupRunner warmupRunner = new WarmupRunner(name, config.getMaxBatchSize(), validator::validate);
            for (final InstanceContext instance : contexts)
            {
                final InstanceClaim claim = rateLimiter == null ? null : rateLimiter.register(name, instance.name(),
                    rateLimits.get(instance.index()), Math.max(0, instance.deviceId()));
                if (claim != null)
                {
                    claims.add(claim);
                }
                final Engine engine = backend.createEngine(instance);
                engines.add(engine);
                final ModelInstance modelInstance = new ModelInstance(this, agents.size(), instance.name(), engine,
                    context.allocator());
                instances.add(modelInstance);
                // Triton warms each instance up right after it is initialized; the version serves only after all.
                warmUp(warmupRunner, warmup, modelInstance, claim);
                final InstanceAgent agent = new InstanceAgent(scheduler, modelInstance, agents.size(),
                    settings.maxBatchSize(), this::answerEnded, "ingot-instance-" + name + "-v" + version + "-"
                    + instance.name());
                if (claim != null)
                {
                    agent.rateLimitWith(claim);
                }
                agents.add(agent);
            }
        }
        catch (final Exception ex)
        {
            claims.forEach(InstanceClaim::close);
            for (final ModelInstance instance : instances)
            {
                instance.close();  // its staging and its engine
            }
            for (final Engine engine : engines.subList(instances.size(), engines.size()))
            {
                closeQuietly(engine);
            }
            throw ex;
        }
        final Seat[] seats = new Seat[agents.size()];
        for (int i = 0; i < seats.length; i++)
        {
            seats[i] = agents.get(i).seat();
        }
        scheduler.seat(seats);
        for (final InstanceAgent agent : agents)
        {
            runners.add(new AgentRunner(agent, IdleStrategies.of(idleMode, agent.seat().bell(), agent::hasWork),
                true));
        }
        timekeeper.register(scheduler, this::answerEnded);
        runners.forEach(AgentRunner::start);
    }

    /** A warm-up is an execution: under the rate limiter it holds the instance's resources, as in Triton. */
    private static void warmUp(final WarmupRunner runner, final WarmupPlan plan, final ModelInstance instance,
        final InstanceClaim claim)
    {
        if (claim == null || plan.isEmpty())
        {
            runner.run(plan, instance);
            return;
        }
        claim.acquireBlocking();
        try
        {
            runner.run(plan, instance);
        }
        finally
        {
            claim.release();
        }
    }

    private ResponseCaching cachingOf(final ResponseCache cache)
    {
        if (!config.getResponseCache().getEnable())
        {
            return null;
        }
        if (config.hasSequenceBatching())
        {
            // core src/model_config_utils.cc: the cache never holds a stateful model's responses.
            throw new InferenceException(ErrorCode.INVALID_ARG, "Response Cache does not currently support model "
                + name + " with sequence batching scheduler. Please disable the response cache.");
        }
        if (cache == null)
        {
            LOG.log(Level.WARNING, "model '" + name + "' enables response_cache, but the server has no cache "
                + "(--cache-config local,size=<bytes>): its responses are not cached");
            return null;
        }
        return new ResponseCaching(config, version, cache, stats.shared());
    }

    /** Triton's scheduler choice: the sequence batcher, the dynamic batcher, or the default scheduler. */
    private BatchPolicy policyOf(final SchedulerSettings settings, final LevelAdmission admission,
        final int instances)
    {
        if (config.hasSequenceBatching())
        {
            return SequencePolicies.of(config, instances, settings);
        }
        if (!settings.dynamic())
        {
            return new DefaultSchedulingPolicy();
        }
        final boolean batchDimension = config.getMaxBatchSize() > 0;
        final BatchingParameters chosen = batchingOf(config);
        return switch (chosen.kind())
        {
            case STATIC -> new DynamicBatchPolicy(settings, batchDimension, admission);
            case ADAPTIVE -> new AdaptiveBatchPolicy(settings, batchDimension, admission, instances,
                SchedulerSettings.microsToNanos(chosen.sloMicros()), chosen.percentile());
            case AIMD -> new AimdBatchPolicy(settings, batchDimension, admission, instances,
                SchedulerSettings.microsToNanos(chosen.sloMicros()), chosen.aimdIncrease(), chosen.aimdDecrease());
        };
    }

    /** The {@code ingot.batching} parameters, checked again here for a configuration that bypassed the validator. */
    private static BatchingParameters batchingOf(final ModelConfig config)
    {
        try
        {
            return BatchingParameters.of(config);
        }
        catch (final ConfigException ex)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, ex.reason());
        }
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
                    rateLimits.add(group.getRateLimiter());
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
    @Override
    public void submit(final InferenceRequest request, final ResponseListener listener)
    {
        if (decoupled)
        {
            throw new DecoupledModelException(name);
        }
        accept(request, listener, null);
    }

    /**
     * Validates a request and hands it to the scheduler; its responses go to {@code stream}, each with its final flag
     * (a non-decoupled model's one response is final).
     *
     * @throws InferenceException as {@link #submit(InferenceRequest, ResponseListener)} does, decoupled or not
     */
    @Override
    public void submit(final InferenceRequest request, final ResponseStreamListener stream)
    {
        accept(request, null, stream);
    }

    private void accept(final InferenceRequest request, final ResponseListener listener,
        final ResponseStreamListener stream)
    {
        final PendingRequest pending = prepare(request, listener, stream);
        if (pending == null)
        {
            return;
        }
        try
        {
            scheduler.submit(pending);
        }
        catch (final RuntimeException ex)
        {
            withdraw(pending);
            throw ex;
        }
    }

    /**
     * Accepts the requests {@code [from, to)} of a batch, all for this version: validates each (a refused one gets its
     * error through the batch), then hands the valid ones to the scheduler with one ring claim and one fence.
     *
     * When the scheduler refuses them all (a stopping or retiring version), none is accepted and each valid one goes
     * to {@code resend}. One array of bookkeeping per call, none per request.
     */
    @Override
    public void submitAll(final InferenceBatch batch, final int from, final int to, final IntConsumer resend)
    {
        final int size = to - from;
        final PendingRequest[] pendings = new PendingRequest[size];
        final InferenceException[] refusals = new InferenceException[size];
        final int[] handed = new int[size];
        int count = 0;
        for (int i = from; i < to; i++)
        {
            try
            {
                if (decoupled)
                {
                    throw new DecoupledModelException(name);
                }
                final PendingRequest pending = prepare(batch.request(i), batch.listener(i), null);
                if (pending != null)
                {
                    pendings[count] = pending;
                    handed[count++] = i;
                }
            }
            catch (final RuntimeException refused)
            {
                batch.refuse(i, refused);
            }
        }
        if (count == 0)
        {
            return;
        }
        try
        {
            scheduler.submitAll(pendings, count, refusals);
        }
        catch (final RuntimeException ex)
        {
            for (int k = 0; k < count; k++)
            {
                withdraw(pendings[k]);
            }
            for (int k = 0; k < count; k++)
            {
                resend.accept(handed[k]);
            }
            return;
        }
        for (int k = 0; k < count; k++)
        {
            if (refusals[k] != null)
            {
                withdraw(pendings[k]);
                batch.refuse(handed[k], refusals[k]);
            }
        }
    }

    /**
     * Validates a request and makes it in flight, ready for the scheduler.
     *
     * @return its bookkeeping, or {@code null} when the response cache answered it already
     */
    private PendingRequest prepare(final InferenceRequest request, final ResponseListener listener,
        final ResponseStreamListener stream)
    {
        final PendingRequest pending = RequestValidator.bookkeepingOf(request);
        final RequestTrace trace = request.trace();
        if (trace != null)
        {
            trace.requestStarted(System.nanoTime());
        }
        validator.validate(request, pending);
        // Without a sequence batcher the sequence fields stay as PendingRequest.clear() left them after the last
        // flight.
        if (sequences != null)
        {
            sequences.admit(request, pending);
        }
        final CachedResponse cached = caching == null ? null : caching.lookup(request, pending);
        if (cached != null)
        {
            answerFromCache(request, listener, stream, pending, cached);
            return null;
        }
        if (!RequestLifecycle.begin(request, cancelHook))
        {
            throw new IllegalStateException("request '" + request.id() + "' for model '" + name
                + "' is already in flight; submit it again only after its response was delivered");
        }
        pending.request = request;
        pending.listener = listener;
        pending.stream = stream;
        if (trace != null)
        {
            trace.queued(System.nanoTime());
        }
        return pending;
    }

    /** Takes back a prepared request the scheduler refused: it is no longer in flight. */
    private void withdraw(final PendingRequest pending)
    {
        if (!scheduler.isRefusing() || scheduler.isStopping())
        {
            // Not counted when retiring: the core sends the request on to the version that replaced this one.
            stats.shared().requestFailed(0, FailureReason.REJECTED);
        }
        final InferenceRequest request = pending.request;
        pending.clear();
        RequestLifecycle.end(request);
    }

    /** Answers the requests the scheduler ended without executing them, with Triton's messages. */
    private void answerEnded(final EndedRequests ended)
    {
        for (int i = 0; i < ended.count(); i++)
        {
            final PendingRequest request = ended.request(i);
            final String id = ModelScheduler.idOf(request.request);
            final String message = switch (ended.ending(i))
            {
                case TIMED_OUT -> "Request timeout expired";
                case CANCELLED -> "[request id: " + id + "] Request for model '" + name + "' was cancelled";
                case STOPPING -> "[request id: " + id
                    + "] Server is stopping, scheduler for model has stopped accepting new inference requests";
                case SEQUENCE_NOT_STARTED -> "inference request for sequence " + request.correlationText()
                    + " to model '" + name + "' must specify the START flag on the first request of the sequence";
                case SEQUENCE_EXPIRED -> "timeout of the corresponding sequence has been expired";
            };
            fail(request, ended.ending(i).code(), message, ended.ending(i).reason());
        }
    }

    private void fail(final PendingRequest request, final ErrorCode code, final String message,
        final FailureReason reason)
    {
        final InferenceResponse response = openResponse(request);
        ResponseAssembly.fail(response, new InferenceException(code, message));
        stats.shared().requestFailed(scheduler.clock().nanoTime() - request.acceptedNs, reason);
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

    /**
     * @param output an output's name
     * @return its class labels (from {@code label_filename}), empty when it has none
     */
    @Override
    public List<String> outputLabels(final String output)
    {
        return labels.of(output);
    }

    @Override
    public Path modelDirectory()
    {
        return modelDirectory;
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

    /** A response-cache hit: answered on the submitting thread, before the request reaches the scheduler. */
    private void answerFromCache(final InferenceRequest request, final ResponseListener listener,
        final ResponseStreamListener stream, final PendingRequest pending, final CachedResponse cached)
    {
        if (!RequestLifecycle.begin(request, cancelHook))
        {
            throw new IllegalStateException("request '" + request.id() + "' for model '" + name
                + "' is already in flight; submit it again only after its response was delivered");
        }
        pending.request = request;
        pending.listener = listener;
        pending.stream = stream;
        final InferenceResponse response = openResponse(pending);
        try
        {
            caching.fill(cached, pending, response, allocatorFor(pending));
        }
        catch (final RuntimeException ex)
        {
            ResponseAssembly.fail(response, new InferenceException(ErrorCode.INTERNAL, "model '" + name
                + "': copying the cached response of request '" + request.id() + "' failed: " + ex.getMessage(),
                ex));
        }
        finish(pending, response);
    }

    @Override
    public void deliver(final PendingRequest request, final InferenceResponse response)
    {
        if (caching != null)
        {
            caching.offer(request, response);
        }
        if (ordered != null && request.orderSequence != PendingRequest.NO_ORDER)
        {
            ordered.complete(request, response);
        }
        else
        {
            finish(request, response);
        }
    }

    /** Ends the request's flight and calls its listener, on this thread, with no lock held. */
    private void finish(final PendingRequest request, final InferenceResponse response)
    {
        final InferenceRequest userRequest = request.request;
        final ResponseListener listener = request.listener;
        final ResponseStreamListener stream = request.stream;
        request.clear();
        final RequestTrace trace = userRequest.trace();
        if (trace != null)
        {
            trace.requestEnded(System.nanoTime());
        }
        RequestLifecycle.end(userRequest);
        try
        {
            if (stream != null)
            {
                stream.onResponse(response, true);
            }
            else if (response != null)  // null: a decoupled model's flags-only final, which a warmup run ignores
            {
                listener.onResponse(response);
            }
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of model '" + name + "' threw", ex);
        }
    }

    @Override
    public void deliverPartial(final PendingRequest request, final InferenceResponse response)
    {
        try
        {
            if (request.stream != null)
            {
                request.stream.onResponse(response, false);
            }
            else
            {
                request.listener.onResponse(response);  // a warmup run: it only collects errors
            }
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of model '" + name + "' threw", ex);
        }
    }

    @Override
    public boolean isStopping()
    {
        return scheduler.isStopping();
    }

    /** @return statistics of this version */
    @Override
    public ModelStatistics statistics()
    {
        return stats.snapshot(name, Long.toString(version));
    }

    /** @return whether the version still accepts requests (false once it is retiring or stopping) */
    @Override
    public boolean isReady()
    {
        return !scheduler.isRefusing();
    }

    /** @return the requests accepted and not yet executing or answered (a batch the rate limiter holds back counts) */
    @Override
    public long queuedRequests()
    {
        long waiting = 0;
        for (int i = 0; i < claims.size(); i++)
        {
            waiting += claims.get(i).waitingRequests();  // formed batches the rate limiter holds back: still pending
        }
        return scheduler.queuedRequests() + waiting;
    }

    /**
     * Retires the version a reload replaced: refuses new requests at once (the core sends them to the version that
     * replaced it), runs what it accepted on its own instances, then stops. Requests still queued after
     * {@link #RETIRE_TIMEOUT_NS} are answered UNAVAILABLE by the stop.
     */
    @Override
    public void retire()
    {
        scheduler.retire();
        if (!scheduler.awaitRunOut(RETIRE_TIMEOUT_NS))
        {
            LOG.log(Level.WARNING, "model '" + name + "' version " + version + " was replaced, and its queue did not "
                + "run out within " + TimeUnit.NANOSECONDS.toSeconds(RETIRE_TIMEOUT_NS) + " s: the requests still "
                + "queued are answered UNAVAILABLE");
        }
        stop();
    }

    /**
     * Stops: refuses new requests, answers queued ones UNAVAILABLE, lets executing batches finish, then releases the
     * instances and the backend.
     */
    @Override
    public void stop()
    {
        scheduler.stop();
        final EndedRequests ended = new EndedRequests();
        scheduler.endQueueAtStop(ended);
        answerEnded(ended);
        runners.forEach(AgentRunner::join);
        claims.forEach(InstanceClaim::close);
        timekeeper.unregister(scheduler);
        try
        {
            backend.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "closing backend of model '" + name + "' failed", ex);
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
