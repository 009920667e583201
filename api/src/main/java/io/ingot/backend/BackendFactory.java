package io.ingot.backend;

import io.ingot.api.BackendPlugin;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The backend SPI: one factory per engine kind, found with {@link java.util.ServiceLoader} or given in
 * {@link io.ingot.api.CoreOptions.Builder#backend}. The runtime knows no engine; it picks the factory whose
 * {@link #name()} equals a model's {@code backend}, or, when no factory has that name, whose {@link #platforms()}
 * contain its {@code platform}. The first factory registered under a name or platform wins.
 *
 * <p>Register an implementation in {@code META-INF/services/io.ingot.backend.BackendFactory} (with a public
 * no-argument constructor); each core then makes its own instance.
 *
 * <p>Threads: implementations must be thread-safe. A core calls {@link #autoComplete} and {@link #load} on the
 * threads that call {@link io.ingot.api.InferenceCore#open}, {@link io.ingot.api.InferenceCore#loadModel} and
 * {@link io.ingot.api.InferenceCore#repositoryIndex} (which rescans the repositories), so two calls may run at
 * once; a factory given in {@code CoreOptions} is shared by every core built from those options. What a load
 * returns, the {@link Backend}, belongs to the core until the core closes it.
 */
public interface BackendFactory extends BackendPlugin
{
    /** @return the backend name as {@code config.pbtxt} writes it ({@code backend: "onnxruntime"}). */
    @Override
    String name();

    /** @return the platforms this backend serves ({@code platform: "onnxruntime_onnx"}); may be empty. */
    default Set<String> platforms()
    {
        return Set.of();
    }

    /**
     * Completes a configuration from the model itself, as Triton's backends do when {@code config.pbtxt} omits
     * inputs, outputs or {@code max_batch_size}. Called, when auto-complete is enabled, after the configuration was
     * normalized and passed Triton's model-level validation and the versions were found, and before its inputs and
     * outputs are validated (Triton's order), each time the repositories are scanned; it must not keep what it opened
     * to inspect the model.
     *
     * @param config         the configuration so far (platform and backend known)
     * @param modelDirectory the model's directory, or {@code null} for an in-memory model
     * @param versions       the selected versions, ascending (Ingot's backends inspect the first); empty for an
     *                       in-memory model
     * @return the completed configuration (the argument itself when there is nothing to add); never {@code null}
     * @throws Exception when the model cannot be inspected; the message names the model and the cause. The model
     *                   then fails to load with that message, and the others are not affected
     */
    default ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws Exception
    {
        return config;
    }

    /**
     * Loads one version of a model, on the thread that loads the model (see the class comment). Called once per
     * selected version, with the configuration already normalized and validated.
     *
     * @param context the model version's configuration, files and resources
     * @return the loaded model, from which instances are created; the core closes it when the version stops
     * @throws Exception when the model cannot be loaded; the message names the model and the cause. The model then
     *                   fails to load with that message (the versions already loaded are stopped), and the
     *                   others are not affected
     */
    Backend load(ModelContext context) throws Exception;
}
