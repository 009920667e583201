package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelEnsembling;
import io.ingot.ensemble.EnsembleOrder;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Model control in {@link ModelControlMode#EXPLICIT} mode: Triton's load and unload requests. A load prepares the
 * model ({@link LoadCandidates}: from the repositories, or from the request's configuration and file overrides),
 * first loads an ensemble's composing models that do not serve yet, and installs the model; an unload stops the
 * model (with {@code unload_dependents}, the models it is built from too) and the ensembles that use it. Every
 * change of the model table runs under the core's model-control lock, on the caller's thread, never on a request
 * path; requests read the table without a lock and see a model either before or after a change. The poll of
 * {@link ModelControlMode#POLL} is {@link RepositoryPoll}'s, the index {@link RepositoryIndex}'s.
 *
 * <p>A reload prepares and loads the new versions while the old ones keep serving, and swaps them in only once
 * they are ready; a failed reload leaves the old ones serving. Thread-safe through that lock.
 */
final class ModelController
{
    private static final Logger LOG = System.getLogger(ModelController.class.getName());

    /** Triton's answer to a load or unload request outside {@link ModelControlMode#EXPLICIT}. */
    static final String NOT_EXPLICIT = "explicit model load / unload is not allowed if polling is enabled";

    private final Core core;
    private final CoreOptions options;
    private final ConcurrentHashMap<String, ModelSlot> models;
    private final Object lock;
    private final ModelLoader loader;
    /** Prepares what a load loads and keeps the override directories; guarded by {@link #lock}. */
    private final LoadCandidates candidates;

    /**
     * @param core       the core (whether it is closing)
     * @param options    the core's options
     * @param models     the model table
     * @param lock       the model-control lock
     * @param loader     loads and installs models
     * @param candidates prepares what a load loads
     */
    ModelController(final Core core, final CoreOptions options, final ConcurrentHashMap<String, ModelSlot> models,
        final Object lock, final ModelLoader loader, final LoadCandidates candidates)
    {
        this.core = core;
        this.options = options;
        this.models = models;
        this.lock = lock;
        this.loader = loader;
        this.candidates = candidates;
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
        final LoadCandidates.Candidate candidate;
        try
        {
            candidate = candidates.prepare(model, overrides);
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
        final ModelSlot slot = loader.load(model, candidate.config(), candidate.versions());
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
        loader.install(model, slot);
        candidates.replace(model, candidate.directory());
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

    /**
     * Stops a model's versions (UNLOADING while that runs) and deletes its override directory, if any. The caller
     * holds the model-control lock.
     *
     * @param model the model name
     */
    void stop(final String model)
    {
        final ModelSlot slot = models.put(model, ModelSlot.transition(model, ModelSlot.UNLOADING));
        if (slot != null)
        {
            slot.versions().values().forEach(ServedVersion::stop);
        }
        candidates.replace(model, null);
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

    /** Deletes every override directory; called once the core has stopped every model. */
    void close()
    {
        synchronized (lock)
        {
            candidates.close();
        }
    }
}
