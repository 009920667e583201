package io.ingot.backend;

import io.ingot.api.InferenceCore;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a backend is given to load one model version. Immutable (the configuration is an immutable protobuf message);
 * made by the core for each version it loads.
 *
 * @param modelName        the model's name
 * @param version          the version number
 * @param config           the normalized, validated configuration
 * @param versionDirectory the version directory, or {@code null} for an in-memory model
 * @param modelFile        the model file the platform expects (may not exist), or {@code null} for an in-memory model
 * @param allocator        the pinned-memory allocator the runtime uses for staging; thread-safe, shared by the whole
 *                         core (never {@code null} when the core makes the context)
 * @param core             the core that loads the model, for backends that call other models of it (the Python
 *                         backend's BLS requests); {@code null} for a model loaded outside a core (a test, a
 *                         benchmark). Requests may be submitted to it once the model is loaded, not from
 *                         {@link BackendFactory#load} itself.
 * @param backendConfig    the settings given for this model's backend at start-up (Triton's {@code
 *                         --backend-config=<backend>,<key>=<value>}, with the global ones given without a backend
 *                         name underneath), immutable, empty when none were given
 */
public record ModelContext(String modelName, long version, ModelConfig config, Path versionDirectory,
    Path modelFile, PinnedAllocator allocator, InferenceCore core, Map<String, String> backendConfig)
{
    /** Freezes the backend settings ({@code null}: none). */
    public ModelContext
    {
        backendConfig = backendConfig == null ? Map.of() : Map.copyOf(backendConfig);
    }

    /**
     * A model version loaded by a core without backend settings.
     *
     * @param modelName        the model's name
     * @param version          the version number
     * @param config           the normalized, validated configuration
     * @param versionDirectory the version directory, or {@code null} for an in-memory model
     * @param modelFile        the model file, or {@code null} for an in-memory model
     * @param allocator        the pinned-memory allocator for staging
     * @param core             the core that loads the model, or {@code null}
     */
    public ModelContext(final String modelName, final long version, final ModelConfig config,
        final Path versionDirectory, final Path modelFile, final PinnedAllocator allocator, final InferenceCore core)
    {
        this(modelName, version, config, versionDirectory, modelFile, allocator, core, Map.of());
    }

    /**
     * A model version loaded outside a core: {@link #core()} is {@code null}.
     *
     * @param modelName        the model's name
     * @param version          the version number
     * @param config           the normalized, validated configuration
     * @param versionDirectory the version directory, or {@code null} for an in-memory model
     * @param modelFile        the model file, or {@code null} for an in-memory model
     * @param allocator        the pinned-memory allocator for staging
     */
    public ModelContext(final String modelName, final long version, final ModelConfig config,
        final Path versionDirectory, final Path modelFile, final PinnedAllocator allocator)
    {
        this(modelName, version, config, versionDirectory, modelFile, allocator, null);
    }

    /**
     * Reads a string parameter of the model configuration ({@code parameters { key: "k" value { string_value: "v"
     * } }}).
     *
     * @param key          parameter key
     * @param defaultValue value when absent
     * @return the value
     */
    public String parameter(final String key, final String defaultValue)
    {
        final var parameter = config.getParametersMap().get(key);
        return parameter == null ? defaultValue : parameter.getStringValue();
    }
}
