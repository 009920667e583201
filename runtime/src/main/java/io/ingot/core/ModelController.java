package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelConfigJson;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.ensemble.EnsembleOrder;
import io.ingot.repository.BackendAutoCompleter;
import io.ingot.repository.ModelConfigs;
import io.ingot.repository.ModelRepository;
import io.ingot.repository.PreparedModel;
import io.ingot.repository.ScanResult;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Model control: Triton's load and unload requests (with configuration and file overrides), the repository poll of
 * {@link ModelControlMode#POLL}, and the repository index. Every change of the model table runs under the core's
 * model-control lock, on the caller's thread or the {@link RepositoryPoller}'s, never on a request path; requests
 * read the table without a lock and see a model either before or after a change.
 *
 * <p>A reload prepares and loads the new versions while the old ones keep serving, and swaps them in only once
 * they are ready; a failed reload leaves the old ones serving. Thread-safe through that lock.
 */
final class ModelController
{
    private static final Logger LOG = System.getLogger(ModelController.class.getName());

    /** Triton's answer to a load or unload request outside {@link ModelControlMode#EXPLICIT}. */
    static final String NOT_EXPLICIT = "explicit model load / unload is not allowed if polling is enabled";

    /** Triton's reason for a name found in more than one repository. */
    static final String DUPLICATE = "model appears in two or more repositories";

    private final Core core;
    private final CoreOptions options;
    private final ConcurrentHashMap<String, ModelSlot> models;
    private final Object lock;
    private final BackendAutoCompleter completer;
    private final NormalizeContext normalizeContext;
    /** The override directory each model currently loaded from one runs from; guarded by {@link #lock}. */
    private final Map<String, ModelOverrideDirectory> overrides = new HashMap<>();
    /** What the last poll saw; guarded by {@link #lock}. */
    private RepositorySnapshot polled;
    /** Serving models whose last reload by a poll failed, so that every poll tries again; guarded by {@link #lock}. */
    private final Set<String> staleByPoll = new TreeSet<>();

    ModelController(final Core core, final CoreOptions options, final ConcurrentHashMap<String, ModelSlot> models,
        final Object lock, final BackendAutoCompleter completer, final NormalizeContext normalizeContext)
    {
        this.core = core;
        this.options = options;
        this.models = models;
        this.lock = lock;
        this.completer = completer;
        this.normalizeContext = normalizeContext;
    }

    /**
     * Handles a load request (see {@link io.ingot.api.InferenceCore#loadModel(String, ModelLoadOverrides)}).
     *
     * @param model     the model name
     * @param overrides configuration and files replacing the repository's
     */
    void load(final String model, final ModelLoadOverrides overrides)
    {
        requireExplicit();
        checkName(model);
        if (overrides.byteSize() > options.maxModelOverrideBytes())
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "failed to load '" + model + "': the overrides of "
                + "the load request hold " + overrides.byteSize() + " bytes, more than the limit of "
                + options.maxModelOverrideBytes() + " bytes (CoreOptions.maxModelOverrideBytes)");
        }
        synchronized (lock)
        {
            core.requireOpen();
            load(model, overrides, new ArrayDeque<>());
        }
    }

    /**
     * Loads a model under the lock; an ensemble's composing models that do not serve yet load first, as Triton
     * loads them in explicit mode.
     *
     * @param chain the ensembles whose loads are under way, innermost last, to find a circular dependency
     */
    private void load(final String model, final ModelLoadOverrides overrides, final Deque<String> chain)
    {
        final ModelSlot previous = models.get(model);
        final boolean serving = previous != null && previous.serving();
        if (!serving)
        {
            models.put(model, ModelSlot.transition(model, ModelSlot.LOADING));
        }
        final Candidate candidate;
        try
        {
            candidate = prepare(model, overrides);
        }
        catch (final RuntimeException failure)
        {
            restore(model, previous, serving);
            throw failure;
        }
        if (EnsembleOrder.isEnsemble(candidate.config()))
        {
            try
            {
                loadComposing(model, candidate.config(), chain);
            }
            catch (final RuntimeException failure)
            {
                candidate.discard();
                restore(model, previous, serving);
                throw failure;
            }
        }
        final ModelSlot slot = core.load(model, candidate.config(), candidate.versions());
        if (!slot.state().equals(ModelSlot.READY))
        {
            candidate.discard();
            if (!serving)
            {
                models.put(model, slot);
            }
            throw new InferenceException(ErrorCode.INVALID_ARG, "load failed for model '" + model + "': "
                + slot.reason());
        }
        core.install(model, slot);
        replaceOverride(model, candidate.directory());
    }

    /**
     * Loads the composing models of an ensemble that do not serve yet. One that fails to load is logged and left
     * failed: the ensemble's own load then reports it as not available, as Triton does.
     */
    private void loadComposing(final String ensemble, final ModelConfig config, final Deque<String> chain)
    {
        chain.addLast(ensemble);
        try
        {
            for (final ModelEnsembling.Step step : config.getEnsembleScheduling().getStepList())
            {
                final String composing = step.getModelName();
                if (chain.contains(composing))
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "load failed for model '"
                        + chain.getFirst() + "': " + EnsembleOrder.circular(composing, ensemble));
                }
                final ModelSlot slot = models.get(composing);
                if (slot != null && slot.serving())
                {
                    continue;
                }
                try
                {
                    load(composing, ModelLoadOverrides.NONE, chain);
                }
                catch (final InferenceException failed)
                {
                    if (failed.getMessage().contains("circular dependency between ensembles"))
                    {
                        throw failed;
                    }
                    LOG.log(Level.WARNING, "ensemble '" + ensemble + "': composing model '" + composing
                        + "' failed to load: " + failed.getMessage());
                }
            }
        }
        finally
        {
            chain.removeLast();
        }
    }

    /**
     * Handles an unload request (see {@link io.ingot.api.InferenceCore#unloadModel(String, boolean)}).
     *
     * @param model            the model name
     * @param unloadDependents also unload the models it is built from (an ensemble's composing models)
     */
    void unload(final String model, final boolean unloadDependents)
    {
        requireExplicit();
        synchronized (lock)
        {
            core.requireOpen();
            final List<String> unloading = new ArrayList<>();
            unloading.add(model);
            if (unloadDependents)
            {
                unloading.addAll(composingModels(model));
            }
            for (final String name : unloading)
            {
                final ModelSlot before = models.get(name);
                if (before != null)
                {
                    stop(name);
                    models.put(name, unloadedSlot(before));
                }
            }
            unloadEnsemblesUsing(new LinkedHashSet<>(unloading));
        }
    }

    /**
     * The models a model is built from, which {@code unload_dependents} unloads with it: an ensemble's composing
     * models and theirs, each once; none for any other model.
     */
    private List<String> composingModels(final String model)
    {
        final Set<String> found = new LinkedHashSet<>();
        addComposing(model, found);
        found.remove(model);
        return List.copyOf(found);
    }

    private void addComposing(final String model, final Set<String> found)
    {
        final ModelSlot slot = models.get(model);
        if (slot == null || slot.latest() == null || !EnsembleOrder.isEnsemble(slot.latest().config()))
        {
            return;
        }
        for (final ModelEnsembling.Step step : slot.latest().config().getEnsembleScheduling().getStepList())
        {
            if (found.add(step.getModelName()))
            {
                addComposing(step.getModelName(), found);
            }
        }
    }

    /**
     * After models were unloaded: the ensembles that use one of them stop serving, with Triton's reason (its
     * dependency graph re-checks them and finds their composing model missing).
     */
    private void unloadEnsemblesUsing(final Set<String> unloaded)
    {
        for (final ModelSlot slot : List.copyOf(models.values()))
        {
            if (slot.latest() == null || !EnsembleOrder.isEnsemble(slot.latest().config()))
            {
                continue;
            }
            final Set<String> missing = new LinkedHashSet<>();
            for (final ModelEnsembling.Step step : slot.latest().config().getEnsembleScheduling().getStepList())
            {
                if (unloaded.contains(step.getModelName()))
                {
                    missing.add(step.getModelName());
                }
            }
            if (!missing.isEmpty())
            {
                stop(slot.name());
                models.put(slot.name(), ModelSlot.failed(slot.name(), "ensemble " + slot.name()
                    + " contains models that are not available or ambiguous: " + String.join(", ", missing)));
                final Set<String> next = new LinkedHashSet<>(unloaded);
                next.add(slot.name());
                unloadEnsemblesUsing(next);
                return;
            }
        }
    }

    /**
     * What the index shows after an unload, as Triton's does: each version that served "unloaded"; a model that had
     * failed keeps its versions' reasons.
     */
    private static ModelSlot unloadedSlot(final ModelSlot before)
    {
        if (!before.serving() && !before.unavailable().isEmpty())
        {
            return before;
        }
        return ModelSlot.unloaded(before.name(), before.versions().keySet());
    }

    /** Stops a model's versions (UNLOADING while that runs) and deletes its override directory, if any. */
    private void stop(final String model)
    {
        final ModelSlot slot = models.put(model, ModelSlot.transition(model, ModelSlot.UNLOADING));
        if (slot != null)
        {
            slot.versions().values().forEach(ServedVersion::stop);
        }
        replaceOverride(model, null);
    }

    private void restore(final String model, final ModelSlot previous, final boolean serving)
    {
        if (serving)
        {
            return;
        }
        if (previous == null)
        {
            models.remove(model);
        }
        else
        {
            models.put(model, previous);
        }
    }

    private void replaceOverride(final String model, final ModelOverrideDirectory directory)
    {
        final ModelOverrideDirectory old = directory == null ? overrides.remove(model)
            : overrides.put(model, directory);
        if (old != null)
        {
            old.close();
        }
    }

    /** What a load would load: the prepared configuration and versions, and the override directory they live in. */
    private record Candidate(ModelConfig config, List<ModelVersion> versions, ModelOverrideDirectory directory)
    {
        void discard()
        {
            if (directory != null)
            {
                directory.close();
            }
        }
    }

    private Candidate prepare(final String model, final ModelLoadOverrides overrides)
    {
        final ModelConfig inMemory = options.inMemoryModels().get(model);
        if (inMemory != null && overrides.files().isEmpty())
        {
            final ModelConfig raw = overrides.config() == null ? inMemory : parseOverride(model, overrides.config());
            try
            {
                return new Candidate(ModelConfigs.prepare(raw, model, completer, normalizeContext),
                    List.of(new ModelVersion(1, null, null)), null);
            }
            catch (final ConfigException ex)
            {
                throw pollFailure(model, ex.getMessage());
            }
        }
        if (overrides.isEmpty())
        {
            return fromRepository(model, options.repositories(), null);
        }
        if (!overrides.files().isEmpty() && overrides.config() == null)
        {
            throw pollFailure(model, "Load parameter 'config' must be specified for model file override");
        }
        final ModelConfig config = parseOverride(model, overrides.config());
        Path repositoryDirectory = null;
        if (overrides.files().isEmpty())
        {
            repositoryDirectory = uniqueDirectory(model);
        }
        final ModelOverrideDirectory directory = ModelOverrideDirectory.write(model, config, overrides.files(),
            repositoryDirectory);
        try
        {
            return fromRepository(model, List.of(directory.repositoryRoot()), directory);
        }
        catch (final RuntimeException failure)
        {
            directory.close();
            throw failure;
        }
    }

    private Path uniqueDirectory(final String model)
    {
        final List<Path> found = listing().directories(model);
        if (found.isEmpty())
        {
            throw pollFailure(model, "model not found in any model repository " + options.repositories());
        }
        if (found.size() > 1)
        {
            throw pollFailure(model, "not unique across all model repositories: " + found);
        }
        return found.getFirst();
    }

    private Candidate fromRepository(final String model, final List<Path> roots,
        final ModelOverrideDirectory directory)
    {
        final ScanResult scan = scan(roots, model::equals);
        scan.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));
        final String failure = scan.failures().get(model);
        if (failure != null)
        {
            throw pollFailure(model, failure);
        }
        final PreparedModel prepared = scan.model(model).orElseThrow(() ->
            pollFailure(model, "model not found in any model repository " + roots));
        return new Candidate(prepared.config(), prepared.versions(), directory);
    }

    private ScanResult scan(final List<Path> roots, final Predicate<String> wanted)
    {
        try
        {
            return ModelRepository.scan(roots, options.modelConfigName(), completer, normalizeContext, wanted);
        }
        catch (final ConfigException ex)
        {
            throw new InferenceException(ErrorCode.INTERNAL, "cannot read model repositories " + roots + ": "
                + ex.getMessage(), ex);
        }
    }

    private static ModelConfig parseOverride(final String model, final String json)
    {
        try
        {
            return ModelConfigJson.fromJson(json);
        }
        catch (final IllegalArgumentException e)
        {
            throw pollFailure(model, "Invalid config override: " + e.getMessage());
        }
    }

    /**
     * Triton's answer when a model cannot be read from the repository (its configuration, its directory, its
     * overrides), followed by the reason, which Triton only logs.
     */
    private static InferenceException pollFailure(final String model, final String reason)
    {
        return new InferenceException(ErrorCode.INTERNAL, "failed to load '" + model
            + "', failed to poll from model repository: " + reason);
    }

    private static void checkName(final String model)
    {
        if (model == null || model.isBlank())
        {
            throw new InferenceException(ErrorCode.INVALID_ARG,
                "Model name cannot be empty. Please enter a valid name to deploy.");
        }
        final String trimmed = model.strip();
        if (trimmed.equals("..") || trimmed.equals(".") || trimmed.contains("/") || trimmed.contains("\\")
            || trimmed.indexOf('\0') >= 0)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "invalid model name '" + model
                + "', model name must not contain path traversal characters");
        }
    }

    private void requireExplicit()
    {
        if (options.controlMode() != ModelControlMode.EXPLICIT)
        {
            throw new InferenceException(ErrorCode.UNAVAILABLE, NOT_EXPLICIT);
        }
    }

    /**
     * Records what the repositories look like before the start-up load, so that the first poll sees every change
     * made since.
     *
     * @return false when the repositories cannot be listed (then the start-up load reports it)
     */
    boolean takeBaseline()
    {
        synchronized (lock)
        {
            try
            {
                polled = RepositorySnapshot.take(options.repositories());
                return true;
            }
            catch (final ConfigException ex)
            {
                return false;
            }
        }
    }

    /**
     * One poll of {@link ModelControlMode#POLL}: loads the models added since the last poll, reloads the changed
     * ones (the old versions serve until the new ones are ready; a failed reload keeps them) and unloads the
     * removed ones and the names that became duplicates. Models that did not change are not touched.
     */
    void poll()
    {
        final RepositorySnapshot now;
        try
        {
            now = RepositorySnapshot.take(options.repositories());
        }
        catch (final ConfigException ex)
        {
            LOG.log(Level.WARNING, "repository poll failed, nothing changed: " + ex.getMessage());
            return;
        }
        synchronized (lock)
        {
            if (core.isClosed())
            {
                return;
            }
            final RepositorySnapshot previous = polled == null ? RepositorySnapshot.empty() : polled;
            final Set<String> changed = new TreeSet<>(now.changedSince(previous));
            changed.addAll(failedSincePolled(now));
            polled = now;
            if (changed.isEmpty())
            {
                return;
            }
            LOG.log(Level.INFO, "repository poll: models added, changed, removed or failed before: " + changed);
            final ScanResult scan;
            try
            {
                scan = ModelRepository.scan(options.repositories(), options.modelConfigName(), completer,
                    normalizeContext, name -> changed.contains(name) && !now.isDuplicate(name));
            }
            catch (final ConfigException ex)
            {
                LOG.log(Level.WARNING, "repository poll failed, nothing changed: " + ex.getMessage());
                polled = previous;
                return;
            }
            scan.warnings().forEach(warning -> LOG.log(Level.WARNING, warning));
            final Map<String, PreparedModel> prepared = new TreeMap<>();
            scan.models().forEach(model -> prepared.put(model.name(), model));
            for (final String name : pollOrder(changed, prepared))
            {
                if (options.inMemoryModels().containsKey(name))
                {
                    continue;
                }
                if (!now.names().contains(name) || now.isDuplicate(name))
                {
                    removeByPoll(name, now.isDuplicate(name));
                }
                else if (prepared.containsKey(name))
                {
                    reloadByPoll(prepared.get(name));
                }
                else
                {
                    keepOrFail(name, scan.failures().getOrDefault(name, "model could not be prepared"));
                }
            }
        }
    }

    /**
     * The models a poll tries again although their files did not change, as Triton's poll does (it reverts a failed
     * model's timestamp, so every poll loads it again): those that failed to load or be prepared, and serving
     * models whose last reload failed.
     */
    private Set<String> failedSincePolled(final RepositorySnapshot now)
    {
        final Set<String> failed = new TreeSet<>(staleByPoll);
        models.forEach((name, slot) ->
        {
            if (!slot.serving() && slot.state().equals(ModelSlot.UNAVAILABLE) && !slot.reason().equals(DUPLICATE))
            {
                failed.add(name);
            }
        });
        failed.retainAll(now.names());
        failed.removeIf(now::isDuplicate);
        return failed;
    }

    /** The changed names with the ensembles last, each after the changed models it is built from. */
    private static List<String> pollOrder(final Set<String> changed, final Map<String, PreparedModel> prepared)
    {
        final Map<String, ModelConfig> configs = new LinkedHashMap<>();
        prepared.forEach((name, model) -> configs.put(name, model.config()));
        final List<String> order = new ArrayList<>();
        changed.stream().filter(name -> !prepared.containsKey(name)).forEach(order::add);
        final EnsembleOrder.Plan plan = EnsembleOrder.of(configs);
        plan.order().stream().filter(changed::contains).forEach(order::add);
        // A cycle's ensembles go last: their load reports the composing models that are not available.
        plan.failures().keySet().stream().filter(changed::contains).forEach(order::add);
        return order;
    }

    private void removeByPoll(final String name, final boolean duplicate)
    {
        staleByPoll.remove(name);
        if (models.containsKey(name))
        {
            stop(name);
        }
        if (duplicate)
        {
            models.put(name, ModelSlot.failed(name, DUPLICATE));
            LOG.log(Level.WARNING, "repository poll: model '" + name + "' " + DUPLICATE + ", unloaded");
        }
        else
        {
            models.remove(name);
            LOG.log(Level.INFO, "repository poll: model '" + name + "' removed, unloaded");
        }
    }

    private void reloadByPoll(final PreparedModel model)
    {
        final String name = model.name();
        final ModelSlot previous = models.get(name);
        final boolean serving = previous != null && previous.serving();
        if (!serving)
        {
            models.put(name, ModelSlot.transition(name, ModelSlot.LOADING));
        }
        final ModelSlot slot = core.load(name, model.config(), model.versions());
        if (slot.state().equals(ModelSlot.READY))
        {
            staleByPoll.remove(name);
        }
        else if (serving)
        {
            staleByPoll.add(name);
        }
        if (slot.state().equals(ModelSlot.READY) || !serving)
        {
            core.install(name, slot);
            LOG.log(Level.INFO, "repository poll: model '" + name + "' " + (serving ? "reloaded" : "loaded")
                + (slot.serving() ? "" : " and failed: " + slot.reason()));
        }
        else
        {
            LOG.log(Level.WARNING, "repository poll: reloading model '" + name + "' failed, the loaded versions "
                + "keep serving: " + slot.reason());
        }
    }

    private void keepOrFail(final String name, final String reason)
    {
        final ModelSlot previous = models.get(name);
        if (previous != null && previous.serving())
        {
            staleByPoll.add(name);
            LOG.log(Level.WARNING, "repository poll: model '" + name + "' changed and cannot be prepared, the "
                + "loaded versions keep serving: " + reason);
            return;
        }
        models.put(name, ModelSlot.failed(name, reason));
        LOG.log(Level.WARNING, "repository poll: model '" + name + "' cannot be prepared: " + reason);
    }

    /**
     * The repository index (see {@link io.ingot.api.InferenceCore#repositoryIndex}).
     *
     * @param readyOnly only the ready versions
     * @return the entries, by name
     */
    List<ModelIndexEntry> index(final boolean readyOnly)
    {
        final RepositorySnapshot listing = listing();
        final TreeMap<String, ModelSlot> sorted = new TreeMap<>(models);
        final Set<String> names = new TreeSet<>(sorted.keySet());
        names.addAll(listing.names());
        final List<ModelIndexEntry> index = new ArrayList<>();
        for (final String name : names)
        {
            final ModelSlot slot = sorted.get(name);
            if (listing.isDuplicate(name) && (slot == null || !slot.serving()))
            {
                if (!readyOnly)
                {
                    index.add(new ModelIndexEntry(name, "", ModelSlot.UNAVAILABLE, DUPLICATE));
                }
            }
            else if (slot == null)
            {
                if (!readyOnly)
                {
                    index.add(new ModelIndexEntry(name, "", "", ""));
                }
            }
            else if (!slot.serving())
            {
                if (!readyOnly)
                {
                    addUnavailable(index, slot);
                }
            }
            else
            {
                for (final Map.Entry<Long, ServedVersion> version : slot.versions().entrySet())
                {
                    final boolean ready = version.getValue().isReady();
                    if (!readyOnly || ready)
                    {
                        index.add(new ModelIndexEntry(name, String.valueOf(version.getKey()),
                            ready ? ModelSlot.READY : ModelSlot.UNLOADING, ""));
                    }
                }
            }
        }
        return index;
    }

    private static void addUnavailable(final List<ModelIndexEntry> index, final ModelSlot slot)
    {
        if (slot.unavailable().isEmpty())
        {
            index.add(new ModelIndexEntry(slot.name(), "", slot.state(), slot.reason()));
            return;
        }
        slot.unavailable().forEach((version, reason) ->
            index.add(new ModelIndexEntry(slot.name(), String.valueOf(version), ModelSlot.UNAVAILABLE, reason)));
    }

    private RepositorySnapshot listing()
    {
        try
        {
            return RepositorySnapshot.list(options.repositories());
        }
        catch (final ConfigException ex)
        {
            LOG.log(Level.WARNING, "cannot list the model repositories: " + ex.getMessage());
            return RepositorySnapshot.empty();
        }
    }

    /** Deletes every override directory; called once the core has stopped every model. */
    void close()
    {
        synchronized (lock)
        {
            overrides.values().forEach(ModelOverrideDirectory::close);
            overrides.clear();
        }
    }
}
