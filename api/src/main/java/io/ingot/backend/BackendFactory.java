package io.ingot.backend;

import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The backend SPI: one factory per engine kind, found with {@link java.util.ServiceLoader}. The runtime knows no
 * engine; it picks the factory whose {@link #name()} equals a model's {@code backend}, or whose
 * {@link #platforms()} contain its {@code platform}.
 *
 * <p>Register an implementation in {@code META-INF/services/io.ingot.backend.BackendFactory}.
 */
public interface BackendFactory
{
    /** @return the backend name as {@code config.pbtxt} writes it ({@code backend: "onnxruntime"}). */
    String name();

    /** @return the platforms this backend serves ({@code platform: "onnxruntime_onnx"}); may be empty. */
    default Set<String> platforms()
    {
        return Set.of();
    }

    /**
     * Completes a configuration from the model itself, as Triton's backends do when {@code config.pbtxt} omits
     * inputs, outputs or {@code max_batch_size}. Called before normalization and validation.
     *
     * @param config         the configuration so far (platform and backend known)
     * @param modelDirectory the model's directory, or {@code null} for an in-memory model
     * @param versions       the selected versions (the first one is inspected)
     * @return the completed configuration (the argument itself when there is nothing to add)
     * @throws Exception when the model cannot be inspected; the message names the model and the cause
     */
    default ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws Exception
    {
        return config;
    }

    /**
     * Loads one version of a model.
     *
     * @param context the model version's configuration, files and resources
     * @return the loaded model, from which instances are created
     * @throws Exception when the model cannot be loaded; the message names the model and the cause
     */
    Backend load(ModelContext context) throws Exception;
}
