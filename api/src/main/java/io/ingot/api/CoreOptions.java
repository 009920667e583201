package io.ingot.api;

import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;
import io.ingot.time.NanoClock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How to build an {@link InferenceCore}: where models come from and how its threads behave. Built with
 * {@link #builder()}.
 *
 * <p>Immutable: the collections are copied when the record is made (a {@code null} element is a
 * {@link NullPointerException}). The allocators and backend factories are held by reference and shared by every
 * core opened with these options, and those cores call them from their own threads, so they must be thread-safe.
 * The {@link Builder} is not thread-safe: one thread fills it.
 *
 * @param repositories      model repository roots, searched in order
 * @param inMemoryModels    models given as configs rather than directories, by name
 * @param controlMode       which models load at start-up
 * @param startupModels     with {@link ModelControlMode#EXPLICIT}, the models to load at start-up ({@code "*"} = all)
 * @param modelConfigName   if set, {@code configs/<name>.pbtxt} is preferred over {@code config.pbtxt}
 * @param idleMode          what the core's threads — every model instance's thread and the timekeeper — do while
 *                          there is no work ({@link IdleMode})
 * @param ringSize          slots of each model version's intake ring (a power of two); a submitter that finds it
 *                          full moves the ring's requests into the model's queues itself, or spins while another
 *                          thread does, so the ring bounds no queue (only {@code max_queue_size} does)
 * @param pinnedAllocator   staging memory source, called by every instance thread (and given to backends in
 *                          {@link io.ingot.backend.ModelContext#allocator()}), or {@code null} to choose
 *                          automatically (page-locked where a GPU is usable)
 * @param responseAllocator output memory of requests that set no allocator of their own ({@link ResponseAllocator}),
 *                          or {@code null} for Ingot's pooled off-heap allocator
 * @param serverName        name reported by server metadata
 * @param serverVersion     version reported by server metadata
 * @param backends          backend factories given directly ({@code io.ingot.backend.BackendFactory}s, named
 *                          {@link BackendPlugin} here), consulted before those {@link java.util.ServiceLoader}
 *                          finds (an embedder's own engines, or a test's recording backend)
 * @param autoCompleteConfig whether a model's backend may complete its configuration from the model file, and a model
 *                          may lack a {@code config.pbtxt} (Triton's default; {@code --strict-model-config=true} and
 *                          {@code --disable-auto-complete-config} turn it off, and then a configuration must be
 *                          complete by itself; {@code platform}, {@code backend} and the default model file name are
 *                          still derived from each other, as Triton does)
 * @param strictReadiness   Triton's {@code --strict-readiness}: when true (the default) the core is ready only while
 *                          every model that should be loaded is ready; when false it is ready while it is live
 * @param exitOnError       Triton's {@code --exit-on-error}: when true {@link InferenceCore#open} fails, naming every
 *                          model that failed, if any model fails to load at start-up. False by default for an
 *                          embedded core (it keeps serving the others and reports the failures in
 *                          {@link InferenceCore#repositoryIndex}); {@code ingot serve} defaults to Triton's true
 * @param repositoryPollSeconds with {@link ModelControlMode#POLL}, the seconds between scans of the repositories
 *                          (Triton's {@code --repository-poll-secs}, default 15)
 * @param backendConfig     settings per backend name (Triton's {@code --backend-config}); the settings under the
 *                          empty name apply to every backend, and a backend's own setting of the same key wins. A
 *                          model's backend receives its merged settings in
 *                          {@link io.ingot.backend.ModelContext#backendConfig()}
 * @param responseCacheBytes the capacity of the local response cache the core's models with
 *                          {@code response_cache { enable: true }} share (Triton's {@code --cache-config
 *                          local,size=N}), or 0 for no cache
 * @param maxModelOverrideBytes the most bytes one load request's {@link ModelLoadOverrides} may write to disk
 *                          (configuration and files together); a larger request is refused before anything is
 *                          written (default {@link #DEFAULT_MAX_MODEL_OVERRIDE_BYTES})
 * @param rateLimitMode     Triton's {@code --rate-limit}: {@link RateLimitMode#OFF} (the default) ignores every
 *                          {@code instance_group.rate_limiter}; {@link RateLimitMode#EXECUTION_COUNT} makes instances
 *                          of every model hold their resources while they execute, served by priority
 * @param rateLimitResources Triton's {@code --rate-limit-resource}: the units of each resource; empty (the default)
 *                          gives each resource the most any loaded instance asks for. A name given twice for one
 *                          device keeps the smaller count, as Triton does
 * @param clock             the one clock the core, its timekeeper and servers started over it
 *                          ({@link InferenceCore#clock()}) read; {@link NanoClock#SYSTEM} by default (its Javadoc says
 *                          what another must do)
 */
public record CoreOptions(List<Path> repositories, Map<String, ModelConfig> inMemoryModels,
    ModelControlMode controlMode, Set<String> startupModels, String modelConfigName, IdleMode idleMode, int ringSize,
    PinnedAllocator pinnedAllocator, ResponseAllocator responseAllocator, String serverName, String serverVersion,
    List<BackendPlugin> backends, boolean autoCompleteConfig, boolean strictReadiness, boolean exitOnError,
    int repositoryPollSeconds, Map<String, Map<String, String>> backendConfig, long responseCacheBytes,
    long maxModelOverrideBytes, RateLimitMode rateLimitMode, List<RateLimitResource> rateLimitResources,
    NanoClock clock)
{
    /** Default slots per request ring. */
    public static final int DEFAULT_RING_SIZE = 1024;

    /** Triton's default {@code --repository-poll-secs}. */
    public static final int DEFAULT_REPOSITORY_POLL_SECONDS = 15;

    /** Default bound of one load request's overrides: 1 GiB. */
    public static final long DEFAULT_MAX_MODEL_OVERRIDE_BYTES = 1L << 30;

    /**
     * Validates and freezes the collections.
     *
     * @throws NullPointerException     for a {@code null} collection, element, control mode or idle mode
     * @throws IllegalArgumentException when {@code ringSize} is not a power of two of at least 2, or the poll
     *                                  interval or the override bound is not positive
     */
    public CoreOptions
    {
        repositories = List.copyOf(repositories);
        inMemoryModels = Map.copyOf(inMemoryModels);
        startupModels = Set.copyOf(startupModels);
        backends = List.copyOf(backends);
        rateLimitResources = List.copyOf(rateLimitResources);
        Objects.requireNonNull(rateLimitMode, "rateLimitMode");
        Objects.requireNonNull(clock, "clock");
        final Map<String, Map<String, String>> frozen = new LinkedHashMap<>();
        backendConfig.forEach((backend, settings) -> frozen.put(backend, Map.copyOf(settings)));
        backendConfig = Map.copyOf(frozen);
        if (responseCacheBytes < 0)
        {
            throw new IllegalArgumentException("the response cache size must be 0 (none) or a positive number of "
                + "bytes, was " + responseCacheBytes);
        }
        if (repositoryPollSeconds <= 0)
        {
            throw new IllegalArgumentException("repository poll interval must be positive, was "
                + repositoryPollSeconds + " s");
        }
        if (maxModelOverrideBytes <= 0)
        {
            throw new IllegalArgumentException("model override bound must be positive, was "
                + maxModelOverrideBytes + " bytes");
        }
        Objects.requireNonNull(controlMode, "controlMode");
        Objects.requireNonNull(idleMode, "idleMode");
        if (ringSize < 2 || Integer.bitCount(ringSize) != 1)
        {
            throw new IllegalArgumentException("ring size must be a power of two >= 2, was " + ringSize);
        }
    }

    /**
     * The settings a model of the given backend receives: the global ones (empty backend name), overridden by the
     * backend's own.
     *
     * @param backend the backend's name ({@code onnxruntime}, {@code python}, ...)
     * @return the merged settings, immutable
     */
    public Map<String, String> backendConfigFor(final String backend)
    {
        final Map<String, String> merged = new LinkedHashMap<>(backendConfig.getOrDefault("", Map.of()));
        merged.putAll(backendConfig.getOrDefault(backend, Map.of()));
        return Map.copyOf(merged);
    }

    /** @return a builder with the defaults. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** Builder of {@link CoreOptions}. Not thread-safe; {@link #build()} may be called more than once. */
    public static final class Builder
    {
        private final List<Path> repositories = new ArrayList<>();
        private final Map<String, ModelConfig> inMemoryModels = new LinkedHashMap<>();
        private ModelControlMode controlMode = ModelControlMode.NONE;
        private final Set<String> startupModels = new LinkedHashSet<>();
        private String modelConfigName = "";
        private IdleMode idleMode = IdleMode.BLOCKING;
        private int ringSize = DEFAULT_RING_SIZE;
        private PinnedAllocator pinnedAllocator;
        private ResponseAllocator responseAllocator;
        private String serverName = "ingot";
        private String serverVersion = "0.1.0";
        private final List<BackendPlugin> backends = new ArrayList<>();
        private boolean autoCompleteConfig = true;
        private boolean strictReadiness = true;
        private boolean exitOnError;
        private int repositoryPollSeconds = DEFAULT_REPOSITORY_POLL_SECONDS;
        private final Map<String, Map<String, String>> backendConfig = new LinkedHashMap<>();
        private long responseCacheBytes;
        private long maxModelOverrideBytes = DEFAULT_MAX_MODEL_OVERRIDE_BYTES;
        private RateLimitMode rateLimitMode = RateLimitMode.OFF;
        private NanoClock clock = NanoClock.SYSTEM;
        private final List<RateLimitResource> rateLimitResources = new ArrayList<>();

        private Builder()
        {
        }

        /**
         * @param root a model repository directory
         * @return this
         */
        public Builder modelRepository(final Path root)
        {
            repositories.add(root);
            return this;
        }

        /**
         * Adds a model given only by its config (name from {@code config.name}). Used by embedders and tests; such a
         * model has version 1 and no files.
         *
         * @param config the model's configuration, as {@code config.pbtxt} would give it
         * @return this
         */
        public Builder model(final ModelConfig config)
        {
            if (config.getName().isEmpty())
            {
                throw new IllegalArgumentException("an in-memory model config needs a name");
            }
            inMemoryModels.put(config.getName(), config);
            return this;
        }

        /**
         * @param mode the model control mode
         * @return this
         */
        public Builder controlMode(final ModelControlMode mode)
        {
            controlMode = mode;
            return this;
        }

        /**
         * @param name a model to load at start-up in {@link ModelControlMode#EXPLICIT} mode ({@code "*"} = all)
         * @return this
         */
        public Builder startupModel(final String name)
        {
            startupModels.add(name);
            return this;
        }

        /**
         * @param name prefer {@code configs/<name>.pbtxt} over {@code config.pbtxt}
         * @return this
         */
        public Builder modelConfigName(final String name)
        {
            modelConfigName = name == null ? "" : name;
            return this;
        }

        /**
         * @param mode what every model instance's thread and the core's timekeeper do while there is no work
         *             (default {@link IdleMode#BLOCKING})
         * @return this
         */
        public Builder idleMode(final IdleMode mode)
        {
            idleMode = mode;
            return this;
        }

        /**
         * @param slots slots per model request ring, a power of two
         * @return this
         */
        public Builder ringSize(final int slots)
        {
            ringSize = slots;
            return this;
        }

        /**
         * @param allocator staging memory source, thread-safe ({@code null}: automatic)
         * @return this
         */
        public Builder pinnedAllocator(final PinnedAllocator allocator)
        {
            pinnedAllocator = allocator;
            return this;
        }

        /**
         * @param allocator default output memory for requests that set none, thread-safe ({@code null}: Ingot's
         *                  pool)
         * @return this
         */
        public Builder responseAllocator(final ResponseAllocator allocator)
        {
            responseAllocator = allocator;
            return this;
        }

        /**
         * @param name    reported server name
         * @param version reported server version
         * @return this
         */
        public Builder serverIdentity(final String name, final String version)
        {
            serverName = name;
            serverVersion = version;
            return this;
        }

        /**
         * Adds a backend without registering it in {@code META-INF/services}. Factories added here are looked up
         * before the ones on the class path, in the order added; each core built from these options shares the
         * factory instance, so it must be thread-safe (as {@code io.ingot.backend.BackendFactory} says).
         *
         * @param factory the backend: an {@code io.ingot.backend.BackendFactory} ({@link BackendPlugin} says why the
         *                API names it so)
         * @return this
         */
        public Builder backend(final BackendPlugin factory)
        {
            backends.add(Objects.requireNonNull(factory, "factory"));
            return this;
        }

        /**
         * @param enabled whether configurations are auto-completed before validation (default true)
         * @return this
         */
        public Builder autoCompleteConfig(final boolean enabled)
        {
            autoCompleteConfig = enabled;
            return this;
        }

        /**
         * @param strict whether readiness requires every model to be ready (default true)
         * @return this
         */
        public Builder strictReadiness(final boolean strict)
        {
            strictReadiness = strict;
            return this;
        }

        /**
         * @param exit whether a model failing to load at start-up fails {@link InferenceCore#open} (default false)
         * @return this
         */
        public Builder exitOnError(final boolean exit)
        {
            exitOnError = exit;
            return this;
        }

        /**
         * @param seconds seconds between repository scans in {@link ModelControlMode#POLL} (default 15)
         * @return this
         */
        public Builder repositoryPollSeconds(final int seconds)
        {
            repositoryPollSeconds = seconds;
            return this;
        }

        /**
         * Adds one backend setting.
         *
         * @param backend the backend's name, or {@code ""} for a setting every backend receives
         * @param key     the setting
         * @param value   its value
         * @return this
         */
        public Builder backendConfig(final String backend, final String key, final String value)
        {
            backendConfig.computeIfAbsent(Objects.requireNonNull(backend, "backend"), name -> new LinkedHashMap<>())
                .put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * @param bytes capacity of the shared local response cache, 0 for none (the default)
         * @return this
         */
        public Builder responseCache(final long bytes)
        {
            responseCacheBytes = bytes;
            return this;
        }

        /**
         * @param bytes the most bytes one load request's overrides may write (default 1 GiB)
         * @return this
         */
        public Builder maxModelOverrideBytes(final long bytes)
        {
            maxModelOverrideBytes = bytes;
            return this;
        }

        /**
         * @param mode Triton's {@code --rate-limit} (default {@link RateLimitMode#OFF})
         * @return this
         */
        public Builder rateLimit(final RateLimitMode mode)
        {
            rateLimitMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Adds one {@code --rate-limit-resource}.
         *
         * @param resource a resource's units
         * @return this
         */
        public Builder rateLimitResource(final RateLimitResource resource)
        {
            rateLimitResources.add(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        /**
         * @param time the clock the core, its timekeeper and servers started over it read (default
         *             {@link NanoClock#SYSTEM}; see {@link NanoClock} for what another must do)
         * @return this
         */
        public Builder clock(final NanoClock time)
        {
            clock = Objects.requireNonNull(time, "time");
            return this;
        }

        /** @return the options. */
        public CoreOptions build()
        {
            return new CoreOptions(repositories, inMemoryModels, controlMode, startupModels, modelConfigName,
                idleMode, ringSize, pinnedAllocator, responseAllocator, serverName, serverVersion, backends,
                autoCompleteConfig, strictReadiness, exitOnError, repositoryPollSeconds, backendConfig,
                responseCacheBytes, maxModelOverrideBytes, rateLimitMode, rateLimitResources, clock);
        }
    }
}
