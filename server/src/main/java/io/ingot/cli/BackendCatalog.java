package io.ingot.cli;

import io.ingot.backend.BackendFactory;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.repository.BackendAutoCompleter;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The backends on the class path, found as the runtime finds them ({@link ServiceLoader}, by {@code backend} name
 * first, then by {@code platform}), for checking a repository without starting a core.
 */
final class BackendCatalog
{
    private final Map<String, BackendFactory> byName = new LinkedHashMap<>();
    private final Map<String, BackendFactory> byPlatform = new LinkedHashMap<>();

    /** Loads the backends of the class path. */
    BackendCatalog()
    {
        for (final BackendFactory factory : ServiceLoader.load(BackendFactory.class))
        {
            byName.putIfAbsent(factory.name(), factory);
            for (final String platform : factory.platforms())
            {
                byPlatform.putIfAbsent(platform, factory);
            }
        }
    }

    /**
     * @param config a configuration
     * @return the backend that would serve it, or {@code null}
     */
    BackendFactory find(final ModelConfig config)
    {
        final BackendFactory named = byName.get(config.getBackend());
        if (named != null)
        {
            return named;
        }
        return config.getPlatform().isEmpty() ? null : byPlatform.get(config.getPlatform());
    }

    /**
     * @param config a configuration
     * @return why no backend serves it, or {@code null} when one does
     */
    String missingBackend(final ModelConfig config)
    {
        if (find(config) != null)
        {
            return null;
        }
        return "no backend for backend '" + config.getBackend() + "' / platform '" + config.getPlatform()
            + "' on the class path; available backends: " + byName.keySet() + ", platforms: " + byPlatform.keySet();
    }

    /** @return backend auto-complete through these backends, as the runtime does it. */
    BackendAutoCompleter autoCompleter()
    {
        return (config, directory, versions) ->
        {
            final BackendFactory factory = find(config);
            if (factory == null)
            {
                return config;
            }
            try
            {
                return factory.autoComplete(config, directory, versions);
            }
            catch (final ConfigException e)
            {
                throw e;
            }
            catch (final Exception e)
            {
                throw new ConfigException(ConfigException.Category.INVALID_ARG, "model '" + config.getName()
                    + "': backend '" + factory.name() + "' could not complete the configuration: " + e.getMessage(),
                    e);
            }
        };
    }
}
