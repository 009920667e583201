package io.ingot.repository;

import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;

import java.util.List;
import java.util.Objects;

/**
 * Prepares a configuration that has no model directory (an in-memory model): the same checks, in the same order
 * ({@link LoadOrder}), as a repository model goes through, without version directories or files.
 */
public final class ModelConfigs
{
    private ModelConfigs()
    {
    }

    /**
     * Runs server auto-complete, normalization, model-level validation, the backend lookup, backend auto-complete
     * (when enabled) and the full validation.
     *
     * @param raw       the configuration as given
     * @param modelName the model's name; when {@code null} or empty, {@code raw.name} is used
     * @param completer backend auto-complete; called with a {@code null} directory and no versions
     * @param context   the machine's GPUs
     * @return the final configuration
     * @throws ConfigException INVALID_ARG when no name is given, {@code raw.name} differs from {@code modelName},
     *                         no backend can be determined, or validation fails
     */
    public static ModelConfig prepare(final ModelConfig raw, final String modelName,
        final BackendAutoCompleter completer, final NormalizeContext context) throws ConfigException
    {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(completer, "completer");
        Objects.requireNonNull(context, "context");
        final String name = modelName == null || modelName.isEmpty() ? raw.getName() : modelName;
        if (name.isEmpty())
        {
            throw ConfigException.invalid("an in-memory model configuration must specify 'name'");
        }
        if (!raw.getName().isEmpty() && !raw.getName().equals(name))
        {
            throw ConfigException.invalid("model configuration name '" + raw.getName()
                + "' does not match the model name '" + name + "'");
        }
        final ModelConfig config = LoadOrder.validated(raw, name, null, completer, context, true);
        return LoadOrder.completed(config, null, List.of(), completer, context);
    }
}
