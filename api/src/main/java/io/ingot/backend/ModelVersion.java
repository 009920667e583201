package io.ingot.backend;

import java.nio.file.Path;

/**
 * One selected version of a model in a repository, as the repository scan found it and
 * {@link BackendFactory#autoComplete} receives it. Immutable.
 *
 * @param version   the version number
 * @param directory the version directory
 * @param modelFile the model file (or directory) the platform expects inside it; it may not exist for backends
 *                  that need no file
 */
public record ModelVersion(long version, Path directory, Path modelFile)
{
}
