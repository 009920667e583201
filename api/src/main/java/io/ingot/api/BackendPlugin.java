package io.ingot.api;

/**
 * A backend given to a core directly ({@link CoreOptions.Builder#backend}) instead of found with
 * {@link java.util.ServiceLoader}: the API's name for the backend SPI's {@code io.ingot.backend.BackendFactory},
 * which extends it. The API names the factory only through this interface because the SPI depends on the API (a
 * backend is handed the core that loads it, {@code ModelContext.core()}, for calls to other models): were
 * {@link CoreOptions} to name the SPI's type, each package would reach the other.
 *
 * <p>Every implementation given to a core must be a {@code BackendFactory}; {@link InferenceCore#open} refuses any
 * other with an {@link IllegalArgumentException} that names its class. Thread-safe, as {@code BackendFactory} says.
 */
public interface BackendPlugin
{
    /** @return the backend name as {@code config.pbtxt} writes it ({@code backend: "onnxruntime"}) */
    String name();
}
