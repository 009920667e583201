package io.ingot.repository;

import io.ingot.api.BackendPlugin;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.Platforms;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
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
     * @throws IllegalArgumentException when one given is not a {@link BackendFactory}
     */
    public BackendRegistry(final List<? extends BackendPlugin> given)
    {
        for (final BackendPlugin plugin : given)
        {
            if (!(plugin instanceof BackendFactory factory))
            {
                throw new IllegalArgumentException("backend '" + plugin.name() + "' (" + plugin.getClass().getName()
                    + ") given in CoreOptions is not a " + BackendFactory.class.getName()
                    + ": a core loads models only through the backend SPI");
            }
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
     * @return the factory
     * @throws IllegalStateException with {@link #missingBackend}'s reason when no backend serves the configuration
     *                               or its {@code runtime} cannot be honoured
     */
    public BackendFactory require(final ModelConfig config)
    {
        final String missing = missingBackend(config);
        if (missing != null)
        {
            throw new IllegalStateException(missing);
        }
        return find(config);
    }

    /**
     * Triton's backend library lookup ({@code TritonModel::GetBackendLibraryProperties}) in Ingot's terms: a backend
     * is a {@link BackendFactory} on the class path, not a shared library, so {@code runtime} may be empty or name
     * the library Triton would load for the backend Ingot serves ({@code libtriton_<backend>.so}); a name that
     * climbs out of the backend directory is refused, as Triton refuses it. Triton's message comes first, Ingot's
     * detail after it.
     *
     * @param config a normalized configuration
     * @return why no backend serves it, or {@code null} when one does
     */
    public String missingBackend(final ModelConfig config)
    {
        final String model = config.getName();
        if (Platforms.ENSEMBLE.equals(config.getPlatform()) && config.getBackend().isEmpty())
        {
            return null;  // an ensemble runs on the core's ensemble scheduler, not on a backend
        }
        final BackendFactory factory = find(config);
        if (factory == null)
        {
            if (config.getBackend().isEmpty())
            {
                return "must specify 'backend' for '" + model + "' (no backend on the class path serves platform '"
                    + config.getPlatform() + "'; " + available() + ")";
            }
            return "unable to find backend library for backend '" + config.getBackend() + "', try specifying"
                + " runtime on the model configuration. Ingot has no backend '" + config.getBackend() + "' (model '"
                + model + "', platform '" + config.getPlatform() + "') on the class path; " + available();
        }
        return runtimeProblem(config, factory);
    }

    private String runtimeProblem(final ModelConfig config, final BackendFactory factory)
    {
        final String runtime = config.getRuntime();
        if (runtime.isEmpty())
        {
            return null;
        }
        final String backend = config.getBackend().isEmpty() ? factory.name() : config.getBackend();
        if (escapes(runtime))
        {
            return "backend library name '" + runtime + "' escapes backend directory '" + backend + "', for model '"
                + config.getName() + "', check model config runtime field";
        }
        final String library = libraryName(backend);
        final String resolved = Path.of(runtime.replace('\\', '/')).normalize().toString();
        if (resolved.equals(library) || resolved.equals(libraryName(factory.name())))
        {
            return null;
        }
        return "unable to find backend library '" + runtime + "' for model '" + config.getName() + "', searched: "
            + "the backends on Ingot's class path (Ingot's backends are Java classes, not libraries: 'runtime' may be"
            + " empty or '" + library + "', the library of the backend Ingot serves itself; " + available() + ")";
    }

    /** @return Triton's file name of a backend's library on Linux. */
    static String libraryName(final String backend)
    {
        return "libtriton_" + backend + ".so";
    }

    /** @return whether a relative library name leaves the directory it is resolved in, or is absolute. */
    private static boolean escapes(final String runtime)
    {
        if (runtime.startsWith("/") || runtime.startsWith("\\") || runtime.indexOf('\0') >= 0)
        {
            return true;
        }
        try
        {
            final Path path = Path.of(runtime.replace('\\', '/')).normalize();
            return path.isAbsolute() || path.startsWith("..") || path.toString().isEmpty();
        }
        catch (final InvalidPathException e)
        {
            return true;
        }
    }

    private String available()
    {
        return "available backends: " + byName.keySet() + ", platforms: " + byPlatform.keySet();
    }

    /**
     * @return the backend's part of preparing a model with auto-complete enabled (Triton's default)
     */
    public BackendAutoCompleter autoCompleter()
    {
        return autoCompleter(true);
    }

    /**
     * @param enabled whether backends may complete configurations; false is Triton's
     *                {@code --strict-model-config=true} / {@code --disable-auto-complete-config}: the backend is
     *                still looked up, nothing is completed
     * @return the backend's part of preparing a model: backend lookup and, when enabled, auto-complete
     */
    public BackendAutoCompleter autoCompleter(final boolean enabled)
    {
        return new BackendAutoCompleter()
        {
            @Override
            public ModelConfig complete(final ModelConfig config, final Path directory,
                final List<ModelVersion> versions) throws ConfigException
            {
                return enabled ? completeWithBackend(config, directory, versions) : config;
            }

            @Override
            public boolean enabled()
            {
                return enabled;
            }

            @Override
            public void checkBackend(final ModelConfig config) throws ConfigException
            {
                final String missing = missingBackend(config);
                if (missing != null)
                {
                    throw ConfigException.invalid(missing);
                }
            }
        };
    }

    private ModelConfig completeWithBackend(final ModelConfig config, final Path directory,
        final List<ModelVersion> versions) throws ConfigException
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
    }

    /** @return the backend names. */
    public Collection<String> names()
    {
        return byName.keySet();
    }
}
