package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.ConfigNormalizer;
import io.ingot.config.ConfigValidator;
import io.ingot.config.NormalizeContext;
import io.ingot.config.ServerAutoCompleter;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * The checks a model's configuration goes through when it loads, in Triton's order, so that the first error a user
 * sees is the one Triton would show (triton-inference-server/core: {@code ModelRepositoryManager}'s
 * {@code InitializeModelInfo}, {@code ModelLifeCycle::AsyncLoad}, {@code TritonModel::Create}, {@code Model::Init}):
 * <ol>
 *   <li>{@link #validated}: server-side auto-complete of {@code platform}, {@code backend} and
 *       {@code default_model_filename} (always, as {@code GetNormalizedModelConfig} does), normalization, model-level
 *       validation ({@code ValidateModelConfig}), and inputs and outputs ({@code ValidateModelIOConfig}) when nothing
 *       can complete them any more: auto-complete is off, or the model has no version directory for a backend to
 *       complete them from;</li>
 *   <li>the caller's own steps: for a repository model the directory-name check, then the version directories;</li>
 *   <li>{@link #completed}: the backend lookup, the instance groups ({@code ValidateInstanceGroup}), the backend's
 *       auto-complete when allowed (re-normalized, as {@code UpdateModelConfig} does), and the whole validation once
 *       more on the final configuration.</li>
 * </ol>
 *
 * <p>One departure from Triton: with auto-complete on, Triton leaves a model's inputs and outputs unchecked until its
 * backend has completed them, so a model without any version directory reports only "at least one version must be
 * available..." however broken its configuration. Here a model without version directories has its inputs and
 * outputs validated before the versions are looked for, since no backend can complete them from files that are not
 * there: its configuration error is reported first, as it would be once a version directory is added. A model with
 * version directories goes through Triton's order unchanged.
 *
 * <p>Failures of the backend's part (the last step) read as Triton's load failures do, with the status code first
 * ({@code "Invalid argument: unable to find backend library ..."}), as Triton's {@code Status::AsString} writes the
 * reason of a version that failed to load; failures of the earlier steps are the bare message, as Triton's poll
 * reports them.
 *
 * <p>Stateless.
 */
final class LoadOrder
{
    private LoadOrder()
    {
    }

    /**
     * @param raw                   the configuration as read (possibly empty)
     * @param name                  the model's name; {@code raw.name} is set to it when empty
     * @param firstVersionDirectory the lexicographically first version directory, or {@code null}
     * @param completer             the backend's part (and whether auto-complete is enabled)
     * @param context               the machine's GPUs
     * @param completable           whether the model has something a backend could complete its inputs and outputs
     *                              from: false for a repository model without version directories
     * @return the normalized configuration, valid at the model level (and in its inputs and outputs unless a backend
     *         may still complete them)
     * @throws ConfigException the first check that fails, with Triton's message
     */
    static ModelConfig validated(final ModelConfig raw, final String name, final Path firstVersionDirectory,
        final BackendAutoCompleter completer, final NormalizeContext context, final boolean completable)
        throws ConfigException
    {
        ModelConfig config = ServerAutoCompleter.complete(raw, name, firstVersionDirectory);
        config = ConfigNormalizer.normalize(config, context);
        ConfigValidator.validateModelConfig(config);
        if (!completer.enabled() || !completable)
        {
            ConfigValidator.validateIoConfig(config);
        }
        return config;
    }

    /**
     * @param config         the result of {@link #validated}
     * @param modelDirectory the model directory, or {@code null} for an in-memory model
     * @param versions       the selected versions (empty for an in-memory model)
     * @param completer      the backend's part
     * @param context        the machine's GPUs
     * @return the final configuration
     * @throws ConfigException the first check that fails, with Triton's message after its status code
     *                         ({@code "Invalid argument: ..."})
     */
    static ModelConfig completed(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions, final BackendAutoCompleter completer, final NormalizeContext context)
        throws ConfigException
    {
        try
        {
            return backendPart(config, modelDirectory, versions, completer, context);
        }
        catch (final ConfigException e)
        {
            throw new ConfigException(e.category(), e.category().statusText() + ": " + e.getMessage(), e);
        }
    }

    private static ModelConfig backendPart(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions, final BackendAutoCompleter completer, final NormalizeContext context)
        throws ConfigException
    {
        completer.checkBackend(config);
        ConfigValidator.validateInstanceGroups(config, context);
        ModelConfig result = config;
        if (completer.enabled())
        {
            final ModelConfig completed = completer.complete(config, modelDirectory, versions);
            if (completed == null)
            {
                throw new ConfigException(ConfigException.Category.INTERNAL,
                    "backend auto-complete returned no configuration for model '" + config.getName() + "'");
            }
            result = ConfigNormalizer.normalize(completed, config.getName(), context);
        }
        ConfigValidator.validate(result, context);
        return result;
    }
}
