package io.ingot.core;

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
import io.ingot.backend.ModelContext;
import io.ingot.cache.CachedResponse;
import io.ingot.cache.ResponseCache;
import io.ingot.config.proto.ModelConfig;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Timekeeper;
import io.ingot.instance.EndedResponses;
import io.ingot.instance.HostedModel;
import io.ingot.instance.ResponseDelivery;
import io.ingot.instance.ResponsePool;
import io.ingot.ratelimit.RateLimiter;
import io.ingot.scheduler.BatchPolicies;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.stats.ModelStatsRecorder;
import io.ingot.time.NanoClock;
import io.ingot.warmup.WarmupRunner;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.concurrent.TimeUnit;

/**
 * One loaded model version and the submission of its requests: {@link #submit} validates a request on the caller's
 * thread ({@link RequestValidator}, in Triton's order and words), admits it to its sequence when the model has a
 * sequence batcher, answers it from the response cache on a hit, and otherwise hands it to the version's
 * {@link ModelScheduler}, whose intake ring takes it to the instance that runs it. Its responses leave from one
 * place, the version's {@link VersionDelivery}, which the instances call once per executed batch or per response —
 * also the cache hits answered here and the requests the scheduler ended. A request that carries a
 * {@link RequestTrace} gets its timestamps recorded; others cost a null check. A decoupled model's requests are
 * accepted only with a {@link ResponseStreamListener}.
 *
 * <p>Its parts: the batch-formation policy Triton would choose ({@link BatchPolicies}), the scheduler, the instances
 * with their threads ({@link ModelInstances}, each warmed up before the version is constructed, so a version is
 * installed and reported ready only after every instance warmed up; a failing sample fails the construction), and
 * the statistics. Thread-safe.
 */
final class ModelRuntime implements ServedVersion
{
    private static final Logger LOG = System.getLogger(ModelRuntime.class.getName());

    /** How long a replaced version may take to run its queue out before the rest is answered UNAVAILABLE. */
    static final long RETIRE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final String name;
    private final long version;
    private final ModelConfig config;
    private final Backend backend;
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
    private final NanoClock clock;
    /** Opens the responses of cache hits. */
    private final HostedModel hosted;
    private final ResponseDelivery delivery;
    private final EndedResponses ended;
    private final ModelInstances instances;
    /** {@code model_transaction_policy { decoupled: true }}: zero or many responses per request. */
    private final boolean decoupled;
    private final CancelSweep cancelHook;

    ModelRuntime(final ModelContext context, final Backend backend, final ResponseAllocator defaultAllocator,
        final ResponsePool responses, final IdleMode idleMode, final int ringSize, final Timekeeper timekeeper,
        final ResponseCache cache, final RateLimiter rateLimiter, final NanoClock clock)
        throws Exception
    {
        this.name = context.modelName();
        this.version = context.version();
        this.config = context.config();
        this.modelDirectory = context.versionDirectory() == null ? null : context.versionDirectory().getParent();
        this.backend = backend;
        this.timekeeper = timekeeper;
        this.clock = clock;
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
        final List<ModelInstances.Planned> plan = ModelInstances.plan(context);
        this.sequences = config.hasSequenceBatching() ? new SequenceAdmission(config) : null;
        this.scheduler = new ModelScheduler(name, settings, BatchPolicies.of(config, settings, admission, plan.size()),
            admission, ringSize, clock, timekeeper);
        this.cancelHook = new CancelSweep(scheduler);
        this.stats = new ModelStatsRecorder(settings.maxBatchSize(), plan.size(), this::queuedRequests);
        this.caching = cachingOf(cache);
        this.delivery = new VersionDelivery(name, caching, settings.preserveOrdering(), clock);
        this.hosted = new HostedModel(name, version, config, modelDirectory, stats, responses, defaultAllocator,
            delivery, scheduler, clock);
        this.ended = new EndedResponses(hosted);
        this.instances = new ModelInstances(plan, backend, hosted, ended,
            new WarmupRunner(name, config.getMaxBatchSize(), validator::validate, clock), idleMode, rateLimiter);
        timekeeper.register(scheduler, ended);
        instances.start();
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
        return new ResponseCaching(config, version, cache, stats.shared(), clock);
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
        accept(request, listener, null, false);
    }

    /**
     * As {@link #submit(InferenceRequest, ResponseListener)}, and the batch runs on the calling thread when an
     * instance is idle and lent ({@link ModelScheduler#submitAndRun}).
     */
    @Override
    public void submitAndRun(final InferenceRequest request, final ResponseListener listener)
    {
        if (decoupled)
        {
            throw new DecoupledModelException(name);
        }
        accept(request, listener, null, true);
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
        accept(request, null, stream, false);
    }

    private void accept(final InferenceRequest request, final ResponseListener listener,
        final ResponseStreamListener stream, final boolean run)
    {
        final PendingRequest pending = prepare(request, listener, stream);
        if (pending == null)
        {
            return;
        }
        try
        {
            // Either throws before the acceptance, or accepts (and may run the batch): nothing after it throws.
            if (run)
            {
                scheduler.submitAndRun(pending);
            }
            else
            {
                scheduler.submit(pending);
            }
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
            trace.requestStarted(clock.nanoTime());
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
            trace.queued(clock.nanoTime());
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
        final InferenceResponse response = hosted.openResponse(pending);
        try
        {
            caching.fill(cached, pending, response, hosted.allocatorFor(pending));
        }
        catch (final RuntimeException ex)
        {
            ResponseAssembly.fail(response, new InferenceException(ErrorCode.INTERNAL, "model '" + name
                + "': copying the cached response of request '" + request.id() + "' failed: " + ex.getMessage(),
                ex));
        }
        delivery.deliver(pending, response, true);
    }

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
        // Formed batches the rate limiter holds back are still pending.
        return scheduler.queuedRequests() + instances.waitingRequests();
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
        final EndedRequests queued = new EndedRequests();
        scheduler.endQueueAtStop(queued);
        ended.answer(queued);
        instances.stop();
        timekeeper.unregister(scheduler);
        cancelHook.forget();
        try
        {
            backend.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "closing backend of model '" + name + "' failed", ex);
        }
    }
}
