package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.ensemble.EnsembleOrder;
import io.ingot.repository.BackendAutoCompleter;
import io.ingot.repository.ModelRepository;
import io.ingot.repository.PreparedModel;
import io.ingot.repository.ScanResult;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The repository poll of {@link ModelControlMode#POLL}, run by the {@link RepositoryPoller}'s thread: each poll
 * compares the repositories with what the last one saw ({@link RepositorySnapshot}) and loads the models added,
 * reloads the changed ones, unloads the removed ones and the names that became duplicates, and tries again the
 * models that failed, as Triton's poll does. Changes run under the core's model-control lock, never on a request
 * path. Thread-safe through that lock.
 */
final class RepositoryPoll
{
    private static final Logger LOG = System.getLogger(RepositoryPoll.class.getName());

    private final Core core;
    private final CoreOptions options;
    private final ConcurrentHashMap<String, ModelSlot> models;
    private final Object lock;
    private final BackendAutoCompleter completer;
    private final NormalizeContext normalizeContext;
    private final ModelLoader loader;
    /** Stops the models a poll removes (and deletes their override directories). */
    private final ModelController controller;
    /** What the last poll saw; guarded by {@link #lock}. */
    private RepositorySnapshot polled;
    /** Serving models whose last reload by a poll failed, so that every poll tries again; guarded by {@link #lock}. */
    private final Set<String> staleByPoll = new TreeSet<>();

    /**
     * @param core             the core (whether it is closing)
     * @param options          the core's options
     * @param models           the model table
     * @param lock             the model-control lock
     * @param completer        completes configurations from the backends
     * @param normalizeContext what normalization needs to know (the GPUs)
     * @param loader           loads and installs models
     * @param controller       stops removed models
     */
    RepositoryPoll(final Core core, final CoreOptions options, final ConcurrentHashMap<String, ModelSlot> models,
        final Object lock, final BackendAutoCompleter completer, final NormalizeContext normalizeContext,
        final ModelLoader loader, final ModelController controller)
    {
        this.core = core;
        this.options = options;
        this.models = models;
        this.lock = lock;
        this.completer = completer;
        this.normalizeContext = normalizeContext;
        this.loader = loader;
        this.controller = controller;
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
            if (!slot.serving() && slot.state().equals(ModelSlot.UNAVAILABLE)
                && !slot.reason().equals(RepositorySnapshot.DUPLICATE))
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
            controller.stop(name);
        }
        if (duplicate)
        {
            models.put(name, ModelSlot.failed(name, RepositorySnapshot.DUPLICATE));
            LOG.log(Level.WARNING, "repository poll: model '" + name + "' " + RepositorySnapshot.DUPLICATE
                + ", unloaded");
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
        final ModelSlot slot = loader.load(name, model.config(), model.versions());
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
            loader.install(name, slot);
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
}
