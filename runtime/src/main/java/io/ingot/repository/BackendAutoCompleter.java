package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * Backend-specific auto-complete: fills what only the model itself knows (inputs, outputs, {@code max_batch_size},
 * a default {@code dynamic_batching}), as Triton's backends do through {@code TRITONBACKEND_ModelSetConfig}. The
 * runtime plugs its backend SPI in here; pass {@link #none()} to disable auto-complete (Triton's
 * {@code --disable-auto-complete-config}).
 *
 * <p>It is called after {@code platform} and {@code backend} are known (written or inferred from the files) and
 * before normalization and validation.
 */
@FunctionalInterface
public interface BackendAutoCompleter
{
    /**
     * @param config         the configuration so far: name, platform, backend and default model file are set
     * @param modelDirectory the model's directory, or {@code null} for an in-memory model
     * @param versions       the versions the version policy selects, ascending (empty for an in-memory model)
     * @return the completed configuration ({@code config} itself when there is nothing to add); never {@code null}
     * @throws ConfigException when the model cannot be inspected or contradicts its configuration
     */
    ModelConfig complete(ModelConfig config, Path modelDirectory, List<ModelVersion> versions) throws ConfigException;

    /** @return a completer that adds nothing. */
    static BackendAutoCompleter none()
    {
        return (config, modelDirectory, versions) -> config;
    }
}
