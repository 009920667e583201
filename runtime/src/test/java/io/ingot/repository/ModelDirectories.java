package io.ingot.repository;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes model directories for repository tests: a config (or none) and version directories with a model file. */
final class ModelDirectories
{
    private ModelDirectories()
    {
    }

    /**
     * @param repository the repository directory
     * @param name       the model's directory name
     * @param config     the {@code config.pbtxt} text, or {@code null} for none
     * @param modelFile  the file name each version directory holds
     * @param versions   the version directories to create
     * @return the model directory
     * @throws IOException when writing fails
     */
    static Path write(final Path repository, final String name, final String config, final String modelFile,
        final String... versions) throws IOException
    {
        final Path directory = Files.createDirectories(repository.resolve(name));
        if (config != null)
        {
            Files.writeString(directory.resolve("config.pbtxt"), config);
        }
        for (final String version : versions)
        {
            Files.writeString(Files.createDirectories(directory.resolve(version)).resolve(modelFile), "model");
        }
        return directory;
    }
}
