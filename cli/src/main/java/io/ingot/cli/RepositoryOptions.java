package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The model-repository options {@code serve} and {@code infer} share. */
final class RepositoryOptions
{
    @Option(names = "--model-repository", required = true, paramLabel = "DIR",
        description = "A model repository: <DIR>/<model>/config.pbtxt and numbered version directories."
            + " May be given more than once.")
    List<Path> repositories = new ArrayList<>();

    @Option(names = "--model-config-name", paramLabel = "NAME",
        description = "Prefer <model>/configs/<NAME>.pbtxt over config.pbtxt.")
    String modelConfigName;

    /**
     * @return options for a core over these repositories (control mode NONE: every model loads)
     * @throws CliException when a repository directory does not exist
     */
    CoreOptions.Builder coreOptions()
    {
        final CoreOptions.Builder builder = CoreOptions.builder().controlMode(ModelControlMode.NONE)
            .modelConfigName(modelConfigName);
        for (final Path repository : repositories)
        {
            if (!Files.isDirectory(repository))
            {
                throw CliException.usage("model repository '" + repository + "' is not a directory");
            }
            builder.modelRepository(repository.toAbsolutePath().normalize());
        }
        return builder;
    }
}
