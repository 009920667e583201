package io.ingot.repository;

import io.ingot.backend.BackendFactory;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The backends of a core: those given in {@link io.ingot.api.CoreOptions#backends()}, then those found with
 * {@link ServiceLoader}, looked up by a model's {@code backend}, or by its {@code platform} when no backend is
 * named. Used by the core to load models and by the command line to validate them. Immutable after construction:
 * safe to share between threads.
 */
public final class BackendRegistry
{
    private final Map<String, BackendFactory> byName = new LinkedHashMap<>();
    private final Map<String, BackendFactory> byPlatform = new LinkedHashMap<>();

    /** Finds every {@link BackendFactory} on the class path. */
    public BackendRegistry()
    {
        this(List.of());
    }

    /**
     * @param given factories consulted first, in order (an embedder's or a test's), then those on the class path
     */
    public BackendRegistry(final List<BackendFactory> given)
    {
        for (final BackendFactory factory : given)
        {
            register(factory);
        }
        for (final BackendFactory factory : ServiceLoader.load(BackendFactory.class))
        {
            register(factory);
        }
    }

    private void register(final BackendFactory factory)
    {
        byName.putIfAbsent(factory.name(), factory);
        for (final String platform : factory.platforms())
        {
            byPlatform.putIfAbsent(platform, factory);
        }
    }

    /**
     * @param config a configuration with {@code backend} and/or {@code platform}
     * @return the factory serving it, or {@code null}
     */
    public BackendFactory find(final ModelConfig config)
    {
        if (!config.getBackend().isEmpty())
        {
            final BackendFactory factory = byName.get(config.getBackend());
            if (factory != null)
            {
                return factory;
            }
        }
        return config.getPlatform().isEmpty() ? null : byPlatform.get(config.getPlatform());
    }

    /**
     * @param config a configuration
     * @return the factory, or an exception naming the model, its backend/platform and the backends available
     */
    public BackendFactory require(final ModelConfig config)
    {
        final String missing = missingBackend(config);
        if (missing != null)
        {
            throw new IllegalStateException("model '" + config.getName() + "': " + missing);
        }
        return find(config);
    }

    /**
     * @param config a configuration
     * @return why no backend serves it (naming its backend/platform and what is available), or {@code null} when
     *         one does
     */
    public String missingBackend(final ModelConfig config)
    {
        if (find(config) != null)
        {
            return null;
        }
        return "no backend for backend '" + config.getBackend() + "' / platform '" + config.getPlatform()
            + "' on the class path; available backends: " + byName.keySet() + ", platforms: " + byPlatform.keySet();
    }

    /** @return the backend auto-complete hook for the repository scan. */
    public BackendAutoCompleter autoCompleter()
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
            catch (final ConfigException ex)
            {
                throw ex;
            }
            catch (final Exception ex)
            {
                throw new ConfigException(ConfigException.Category.INVALID_ARG, "model '" + config.getName()
                    + "': backend '" + factory.name() + "' could not complete the configuration: "
                    + ex.getMessage(), ex);
            }
        };
    }

    /** @return the backend names. */
    public Collection<String> names()
    {
        return byName.keySet();
    }
}
