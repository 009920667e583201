package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The model-repository options {@code serve} and {@code infer} share. */
final class RepositoryOptions
{
    @Option(names = "--model-repository", paramLabel = "DIR",
        description = "A model repository: <DIR>/<model>/config.pbtxt and numbered version directories."
            + " May be given more than once (Triton's --model-store is another name for it).")
    List<Path> repositories = new ArrayList<>();

    /**
     * Triton's other name for {@code --model-repository}.
     *
     * @param repository a model repository
     */
    @Option(names = "--model-store", paramLabel = "DIR", hidden = true)
    void modelStore(final Path repository)
    {
        repositories.add(repository);
    }

    @Option(names = "--model-config-name", paramLabel = "NAME",
        description = "Prefer <model>/configs/<NAME>.pbtxt over config.pbtxt.")
    String modelConfigName;

    /**
     * @return options for a core over these repositories (control mode NONE: every model loads)
     * @throws CliException when a repository does not exist or cannot be listed, in Triton's words
     */
    CoreOptions.Builder coreOptions()
    {
        final Map<Path, String> unreadable = unreadable();
        if (!unreadable.isEmpty())
        {
            throw CliException.usage(unreadable.values().iterator().next());
        }
        return coreOptions(List.of());
    }

    /**
     * @param skipped repositories to leave out (those {@link #unreadable()} found)
     * @return options for a core over the other repositories (control mode NONE: every model loads)
     * @throws CliException when a repository does not exist, naming its path in Triton's words
     */
    CoreOptions.Builder coreOptions(final List<Path> skipped)
    {
        requireOne();
        if (modelConfigName != null && modelConfigName.isEmpty())
        {
            throw CliException.usage("Bad option: \"--model-config-name\". Error: empty argument for "
                + "--model-config-name");
        }
        final CoreOptions.Builder builder = CoreOptions.builder().controlMode(ModelControlMode.NONE)
            .modelConfigName(modelConfigName);
        for (final Path repository : repositories)
        {
            if (!Files.isDirectory(repository))
            {
                throw CliException.usage(notADirectory(repository));
            }
            if (!skipped.contains(repository))
            {
                builder.modelRepository(repository.toAbsolutePath().normalize());
            }
        }
        return builder;
    }

    /**
     * Lists every repository once, as the core will, to tell an unreadable one (a mount without permission, an I/O
     * error) from a missing one.
     *
     * @return each repository that exists but cannot be listed, with Triton's message and the cause
     * @throws CliException when a repository does not exist or is not a directory
     */
    Map<Path, String> unreadable()
    {
        requireOne();
        final Map<Path, String> problems = new LinkedHashMap<>();
        for (final Path repository : repositories)
        {
            if (!Files.isDirectory(repository))
            {
                throw CliException.usage(notADirectory(repository));
            }
            try (Stream<Path> entries = Files.list(repository))
            {
                entries.forEach(entry -> { });
            }
            catch (final IOException | RuntimeException e)
            {
                // Files.list reports an entry it cannot read while streaming as UncheckedIOException: name the cause.
                final Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
                problems.put(repository, pollFailure(repository) + ": cannot be read (" + cause + ")");
            }
        }
        return problems;
    }

    private void requireOne()
    {
        if (repositories.isEmpty())
        {
            throw CliException.usage("--model-repository must be specified");
        }
    }

    /** Triton's message when a repository cannot be listed: the start of every such error here. */
    private static String pollFailure(final Path repository)
    {
        return "failed to poll model repository '" + repository + "': failed to open directory " + repository;
    }

    private static String notADirectory(final Path repository)
    {
        return pollFailure(repository) + (Files.exists(repository) ? ": it is not a directory" : ": no such directory")
            + " (--model-repository " + repository + ")";
    }
}
