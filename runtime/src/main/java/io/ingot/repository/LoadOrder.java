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
 *       validation
 *       ({@code ValidateModelConfig}), and, when auto-complete is off, inputs and outputs
 *       ({@code ValidateModelIOConfig});</li>
 *   <li>the caller's own steps: for a repository model the directory-name check, then the version directories;</li>
 *   <li>{@link #completed}: the backend lookup, the instance groups ({@code ValidateInstanceGroup}), the backend's
 *       auto-complete when allowed (re-normalized, as {@code UpdateModelConfig} does), and the whole validation once
 *       more on the final configuration.</li>
 * </ol>
 * Stateless.
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
     * @return the normalized configuration, valid at the model level
     * @throws ConfigException the first check that fails, with Triton's message
     */
    static ModelConfig validated(final ModelConfig raw, final String name, final Path firstVersionDirectory,
        final BackendAutoCompleter completer, final NormalizeContext context) throws ConfigException
    {
        ModelConfig config = ServerAutoCompleter.complete(raw, name, firstVersionDirectory);
        config = ConfigNormalizer.normalize(config, context);
        ConfigValidator.validateModelConfig(config);
        if (!completer.enabled())
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
     * @throws ConfigException the first check that fails, with Triton's message
     */
    static ModelConfig completed(final ModelConfig config, final Path modelDirectory,
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
