package io.ingot.repository;

import io.ingot.backend.ModelVersion;
import io.ingot.config.proto.ModelConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * A model of a repository that is ready to load: its configuration completed, normalized and validated, and the
 * versions its version policy selects.
 *
 * @param name      the model name (its directory name)
 * @param directory the model directory
 * @param config    the final configuration
 * @param versions  the selected versions, ascending; never empty
 */
public record PreparedModel(String name, Path directory, ModelConfig config, List<ModelVersion> versions)
{
    /**
     * @param name      the model name
     * @param directory the model directory
     * @param config    the final configuration
     * @param versions  the selected versions; copied
     */
    public PreparedModel
    {
        versions = List.copyOf(versions);
    }
}
