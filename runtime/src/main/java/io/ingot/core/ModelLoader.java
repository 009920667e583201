package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ResponseAllocator;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.cache.ResponseCache;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.device.PinnedAllocator;
import io.ingot.dispatch.Timekeeper;
import io.ingot.ensemble.EnsembleLinker;
import io.ingot.ensemble.EnsembleOrder;
import io.ingot.ensemble.EnsemblePlan;
import io.ingot.instance.ResponsePool;
import io.ingot.ratelimit.RateLimiter;
import io.ingot.repository.BackendAutoCompleter;
import io.ingot.repository.BackendRegistry;
import io.ingot.repository.ModelConfigs;
import io.ingot.repository.ModelRepository;
import io.ingot.repository.PreparedModel;
import io.ingot.repository.ScanResult;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads models into the core's model table: each version of a model with its backend ({@link ModelRuntime}), or an
 * ensemble linked against the composing models loaded now ({@link EnsembleVersion}), into a {@link ModelSlot} that
 * says which versions serve and why the others do not, in Triton's words; {@link #install} puts a slot in the table
 * and retires the versions it replaces. Also the start-up load. Loads run under the core's model-control lock (the
 * caller holds it, or {@link #loadAtStartup} takes it), never on a request path.
 */
final class ModelLoader
{
    private static final Logger LOG = System.getLogger(ModelLoader.class.getName());

    private final InferenceCore core;
    private final CoreOptions options;
    private final ConcurrentHashMap<String, ModelSlot> models;
    private final Object lock;
    private final BackendRegistry backends;
    private final BackendAutoCompleter completer;
    private final NormalizeContext normalizeContext;
    private final PinnedAllocator pinnedAllocator;
    private final ResponseAllocator defaultAllocator;
    private final ResponsePool responses;
    private final Timekeeper timekeeper;
    /** The local response cache every model with {@code response_cache} shares, or {@code null}. */
    private final ResponseCache cache;
    /** Triton's rate limiter every model's instances share, or {@code null} with {@code --rate-limit=off}. */
    private final RateLimiter rateLimiter;

    /**
     * @param core             the core (handed to backends and ensembles, which submit to it)
     * @param options          the core's options
     * @param models           the model table
     * @param lock             the model-control lock
     * @param backends         the backend factories
     * @param completer        completes configurations from the backends
     * @param normalizeContext what normalization needs to know (the GPUs)
     * @param pinnedAllocator  staging memory of the instances
     * @param defaultAllocator output memory of requests that bring no allocator
     * @param responses        the core's pool of response objects
     * @param timekeeper       the core's timekeeper (queue and sequence timeouts)
     * @param cache            the response cache, or {@code null}
     * @param rateLimiter      the rate limiter, or {@code null}
     */
    ModelLoader(final InferenceCore core, final CoreOptions options, final ConcurrentHashMap<String, ModelSlot> models,
        final Object lock, final BackendRegistry backends, final BackendAutoCompleter completer,
        final NormalizeContext normalizeContext, final PinnedAllocator pinnedAllocator,
        final ResponseAllocator defaultAllocator, final ResponsePool responses, final Timekeeper timekeeper,
        final ResponseCache cache, final RateLimiter rateLimiter)
    {
        this.core = core;
        this.options = options;
        this.models = models;
        this.lock = lock;
        this.backends = backends;
        this.completer = completer;
        this.normalizeContext = normalizeContext;
        this.pinnedAllocator = pinnedAllocator;
        this.defaultAllocator = defaultAllocator;
        this.responses = responses;
        this.timekeeper = timekeeper;
        this.cache = cache;
        this.rateLimiter = rateLimiter;
    }

    /**
     * The start-up load: every model of the repositories (and every in-memory model), or in
     * {@link ModelControlMode#EXPLICIT} mode those {@code CoreOptions.startupModels} names with the composing models
     * of the ensembles among them; ensembles after the models they are built from. A model that fails is installed
     * failed, with its reason.
     */
    void loadAtStartup()
    {
        synchronized (lock)
        {
            final boolean all = options.controlMode() != ModelControlMode.EXPLICIT
                || options.startupModels().contains("*");
            final Map<String, PreparedModel> startup = new LinkedHashMap<>();
            if (!options.repositories().isEmpty())
            {
                final ScanResult scan = scan();
                scan.failures().forEach((name, reason) ->
                {
                    if (all || options.startupModels().contains(name))
                    {
                        models.put(name, ModelSlot.failed(name, reason));
                    }
                });
                for (final PreparedModel model : scan.models())
                {
                    if (all || options.startupModels().contains(model.name()))
                    {
                        startup.put(model.name(), model);
                    }
                }
                addComposingModels(startup, scan);
                scan.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));
            }
            for (final Map.Entry<String, ModelConfig> entry : options.inMemoryModels().entrySet())
            {
                final String name = entry.getKey();
                try
                {
                    final ModelConfig prepared = ModelConfigs.prepare(entry.getValue(), name,
                        completer, normalizeContext);
                    startup.put(name, new PreparedModel(name, null, prepared,
                        List.of(new ModelVersion(1, null, null))));
                }
                catch (final ConfigException ex)
                {
                    install(name, ModelSlot.failed(name, ex.getMessage()));
                }
            }
            // Ensembles load after the models they are built from, as Triton's dependency graph orders them.
            final Map<String, ModelConfig> configs = new LinkedHashMap<>();
            startup.forEach((name, model) -> configs.put(name, model.config()));
            final EnsembleOrder.Plan order = EnsembleOrder.of(configs);
            order.failures().forEach((name, reason) -> install(name, ModelSlot.failed(name, reason)));
            for (final String name : order.order())
            {
                final PreparedModel model = startup.get(name);
                install(name, load(name, model.config(), model.versions()));
            }
        }
    }

    /** Adds the composing models of the ensembles chosen for start-up (transitively), as Triton's --load-model. */
    private static void addComposingModels(final Map<String, PreparedModel> startup, final ScanResult scan)
    {
        final ArrayDeque<PreparedModel> pending = new ArrayDeque<>(startup.values());
        while (!pending.isEmpty())
        {
            final PreparedModel model = pending.poll();
            for (final ModelEnsembling.Step step : model.config().getEnsembleScheduling().getStepList())
            {
                if (!startup.containsKey(step.getModelName()))
                {
                    scan.model(step.getModelName()).ifPresent(composing ->
                    {
                        startup.put(composing.name(), composing);
                        pending.add(composing);
                    });
                }
            }
        }
    }

    private ScanResult scan()
    {
        try
        {
            return ModelRepository.scan(options.repositories(), options.modelConfigName(),
                completer, normalizeContext);
        }
        catch (final ConfigException ex)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "cannot read model repositories "
                + options.repositories() + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Loads every version of a model, as Triton does: each version is tried, and when any fails, the versions that
     * loaded are unloaded again and the slot records each version's state ("unloaded", or the failure as
     * {@code "<Code>: <message>"}) under Triton's summary ("version 2 is at UNAVAILABLE state: Internal: ...;").
     */
    ModelSlot load(final String name, final ModelConfig config, final List<ModelVersion> versions)
    {
        if (EnsembleOrder.isEnsemble(config))
        {
            return loadEnsemble(name, config, versions);
        }
        final NavigableMap<Long, ServedVersion> loaded = new TreeMap<>();
        final NavigableMap<Long, String> failures = new TreeMap<>();
        BackendFactory factory = null;
        Exception missingBackend = null;
        try
        {
            factory = backends.require(config);
        }
        catch (final RuntimeException ex)
        {
            missingBackend = ex;
        }
        for (final ModelVersion version : versions)
        {
            try
            {
                if (missingBackend != null)
                {
                    throw missingBackend;
                }
                loaded.put(version.version(), loadVersion(name, config, version, factory));
            }
            catch (final Exception ex)
            {
                final String reason = LoadFailures.statusText(ex);
                LOG.log(Level.WARNING, "failed to load '" + name + "' version " + version.version() + ": " + reason);
                failures.put(version.version(), reason);
            }
        }
        if (failures.isEmpty())
        {
            return new ModelSlot(name, Collections.unmodifiableNavigableMap(loaded), ModelSlot.READY, "");
        }
        loaded.values().forEach(ServedVersion::stop);
        final NavigableMap<Long, String> unavailable = new TreeMap<>(failures);
        loaded.keySet().forEach(version -> unavailable.put(version, ModelSlot.UNLOADED));
        return ModelSlot.failedVersions(name, LoadFailures.summary(failures), unavailable);
    }

    private ModelRuntime loadVersion(final String name, final ModelConfig config, final ModelVersion version,
        final BackendFactory factory) throws Exception
    {
        final ModelContext context = new ModelContext(name, version.version(), config, version.directory(),
            version.modelFile(), pinnedAllocator, core, options.backendConfigFor(config.getBackend()));
        final Backend backend = factory.load(context);
        try
        {
            return new ModelRuntime(context, backend, defaultAllocator, responses, options.idleMode(),
                options.ringSize(), timekeeper, cache, rateLimiter, options.clock());
        }
        catch (final Exception ex)
        {
            backend.close();
            throw ex;
        }
    }

    /** Links an ensemble against its composing models as they are loaded now, as Triton does. */
    private ModelSlot loadEnsemble(final String name, final ModelConfig config, final List<ModelVersion> versions)
    {
        try
        {
            final EnsemblePlan plan = EnsembleLinker.link(config, this::loadedConfigs);
            final NavigableMap<Long, ServedVersion> loaded = new TreeMap<>();
            versions.forEach(v -> loaded.put(v.version(), new EnsembleVersion(plan, v.version(), core, responses)));
            return new ModelSlot(name, Collections.unmodifiableNavigableMap(loaded), ModelSlot.READY, "");
        }
        catch (final Exception ex)
        {
            final String reason = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            LOG.log(Level.WARNING, "model '" + name + "' failed to load: " + reason);
            return ModelSlot.failed(name, reason);
        }
    }

    /** @return the configurations of a model's loaded versions, ascending; empty when none is loaded */
    private NavigableMap<Long, ModelConfig> loadedConfigs(final String model)
    {
        final ModelSlot slot = models.get(model);
        final NavigableMap<Long, ModelConfig> configs = new TreeMap<>();
        if (slot != null)
        {
            slot.versions().forEach((version, served) -> configs.put(version, served.config()));
        }
        return configs;
    }

    /**
     * Puts a model's slot in the table and retires the versions of the slot it replaces: from the switch on, new
     * requests go to the new versions (a request that raced the switch is sent on, see {@link Core#submit}), and the
     * old ones run what they accepted before they stop.
     */
    void install(final String name, final ModelSlot slot)
    {
        final ModelSlot previous = models.put(name, slot);
        if (previous != null)
        {
            previous.versions().values().forEach(ServedVersion::retire);
        }
    }
}
