package io.ingot.api;

/**
 * The implementation behind {@link InferenceCore#open}: the runtime module registers one in
 * {@code META-INF/services/io.ingot.api.InferenceCoreProvider}, and {@code open} finds it with
 * {@link java.util.ServiceLoader}. Keeping the API free of the implementation lets frontends and backends compile
 * against this module alone.
 *
 * <p>Implementations must be thread-safe: {@link #open} may be called from several threads at once, each call
 * building an independent core that the caller owns. When several providers are registered, the first that
 * {@link java.util.ServiceLoader} finds is used, once per JVM.
 */
public interface InferenceCoreProvider
{
    /**
     * Builds a core and loads its models.
     *
     * @param options where the models come from, and how the core's threads behave
     * @return a running core
     */
    InferenceCore open(CoreOptions options);
}
