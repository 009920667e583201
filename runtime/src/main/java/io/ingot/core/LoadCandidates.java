package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelConfigJson;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.repository.BackendAutoCompleter;
import io.ingot.repository.ModelConfigs;
import io.ingot.repository.ModelRepository;
import io.ingot.repository.PreparedModel;
import io.ingot.repository.ScanResult;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a load request would load, and the override directories models run from: a model is prepared from the
 * repositories, from an in-memory configuration, or from the request's overrides (Triton's load parameters: a JSON
 * configuration, and files written into a private {@link ModelOverrideDirectory} that the model then runs from until
 * it is unloaded or loaded again). Errors are Triton's ("failed to load '<m>', failed to poll from model repository:
 * ..."). Called only under the core's model-control lock; not thread-safe on its own.
 */
final class LoadCandidates
{
    private static final Logger LOG = System.getLogger(LoadCandidates.class.getName());

    private final CoreOptions options;
    private final BackendAutoCompleter completer;
    private final NormalizeContext normalizeContext;
    /** The override directory each model currently loaded from one runs from. */
    private final Map<String, ModelOverrideDirectory> overrides = new HashMap<>();

    /**
     * What a load would load: the prepared configuration and versions, and the override directory they live in.
     *
     * @param config    the prepared configuration
     * @param versions  the versions to load
     * @param directory the override directory, or {@code null} when the model loads from a repository or memory
     */
    record Candidate(ModelConfig config, List<ModelVersion> versions, ModelOverrideDirectory directory)
    {
        /** Deletes the override directory of a candidate that will not be loaded. */
        void discard()
        {
            if (directory != null)
            {
                directory.close();
            }
        }
    }

    /**
     * @param options          the core's options (repositories, in-memory models, configuration file name)
     * @param completer        completes configurations from the backends
     * @param normalizeContext what normalization needs to know (the GPUs)
     */
    LoadCandidates(final CoreOptions options, final BackendAutoCompleter completer,
        final NormalizeContext normalizeContext)
    {
        this.options = options;
        this.completer = completer;
        this.normalizeContext = normalizeContext;
    }

    /**
     * @param model     the model name
     * @param overrides the load request's configuration and files
     * @return what to load
     * @throws InferenceException Triton's poll failure when the model cannot be prepared
     */
    Candidate prepare(final String model, final ModelLoadOverrides overrides)
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

    /**
     * Records the override directory a model now runs from, deleting the one it ran from before.
     *
     * @param model     the model name
     * @param directory its new override directory, or {@code null} when it no longer runs from one
     */
    void replace(final String model, final ModelOverrideDirectory directory)
    {
        final ModelOverrideDirectory old = directory == null ? overrides.remove(model)
            : overrides.put(model, directory);
        if (old != null)
        {
            old.close();
        }
    }

    /** Deletes every override directory; called once the core has stopped every model. */
    void close()
    {
        overrides.values().forEach(ModelOverrideDirectory::close);
        overrides.clear();
    }

    private Path uniqueDirectory(final String model)
    {
        final List<Path> found = RepositorySnapshot.listOrEmpty(options.repositories()).directories(model);
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
}
