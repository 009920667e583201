package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * The backend's part of preparing a model, in Triton's order (its {@code TritonModel::Create}): first the backend is
 * looked up ({@link #checkBackend}), then it fills what only the model itself knows (inputs, outputs,
 * {@code max_batch_size}, a default {@code dynamic_batching}), as Triton's backends do through
 * {@code TRITONBACKEND_ModelSetConfig} ({@link #complete}).
 *
 * <p>{@link #enabled()} tells whether auto-complete is allowed at all. When it is not (Triton's
 * {@code --strict-model-config=true} or {@code --disable-auto-complete-config}) a model needs a {@code config.pbtxt},
 * its inputs and outputs are validated before its version directories are looked at, and {@link #complete} is not
 * called. Triton's server-side completion of {@code platform}, {@code backend} and {@code default_model_filename}
 * runs either way.
 */
@FunctionalInterface
public interface BackendAutoCompleter
{
    /**
     * @param config         the configuration so far: normalized, and valid at the model level (name, platform,
     *                       backend, default model file, scheduling)
     * @param modelDirectory the model's directory, or {@code null} for an in-memory model
     * @param versions       the versions the version policy selects, ascending (empty for an in-memory model)
     * @return the completed configuration ({@code config} itself when there is nothing to add); never {@code null}
     * @throws ConfigException when the model cannot be inspected or contradicts its configuration
     */
    ModelConfig complete(ModelConfig config, Path modelDirectory, List<ModelVersion> versions) throws ConfigException;

    /**
     * @return whether auto-complete is allowed (Triton's default); false in strict mode
     */
    default boolean enabled()
    {
        return true;
    }

    /**
     * Finds the backend that serves a configuration, as Triton looks up a backend library, after the version
     * directories and before the instance groups are validated and the backend completes the configuration.
     *
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG when no backend serves it or its {@code runtime} field cannot be honoured
     */
    default void checkBackend(final ModelConfig config) throws ConfigException
    {
    }

    /** @return a completer that adds nothing and reports auto-complete as disabled (strict mode). */
    static BackendAutoCompleter none()
    {
        return new BackendAutoCompleter()
        {
            @Override
            public ModelConfig complete(final ModelConfig config, final Path modelDirectory,
                final List<ModelVersion> versions)
            {
                return config;
            }

            @Override
            public boolean enabled()
            {
                return false;
            }
        };
    }
}
