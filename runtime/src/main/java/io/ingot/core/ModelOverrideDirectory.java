package io.ingot.core;

import com.google.protobuf.TextFormat;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.repository.ModelRepository;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A private temporary model directory that a load request's overrides are written to, laid out as a one-model
 * repository ({@code <root>/<model>/...}) so that it is read exactly as a repository is.
 *
 * <p>With files (Triton's {@code file:} parameters) the directory holds only those files and the configuration, as
 * Triton's localize agent writes them: the repository's own directory is not used. With only a configuration it
 * holds that configuration and a symbolic link to every other entry of the repository's model directory, so the
 * versions come from the repository without being copied. The root is created owner-only ({@code rwx------}) where
 * the file system supports POSIX permissions. Not thread-safe: the core's model-control lock guards it.
 */
final class ModelOverrideDirectory implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(ModelOverrideDirectory.class.getName());

    private final Path root;
    private final Path modelDirectory;

    private ModelOverrideDirectory(final Path root, final Path modelDirectory)
    {
        this.root = root;
        this.modelDirectory = modelDirectory;
    }

    /**
     * Writes the overrides of one model.
     *
     * @param model      the model name (already checked to be a plain directory name)
     * @param config     the override configuration, written as {@code config.pbtxt}
     * @param files      file contents by path relative to the model directory; empty for a configuration-only
     *                   override
     * @param repository the model's directory in the repository, linked into a configuration-only override; may be
     *                   {@code null} when there are files
     * @return the directory; the caller owns it and must {@link #close()} it
     * @throws InferenceException INVALID_ARG (Triton's text) for a path that leaves the model directory or runs
     *                            through a file; INTERNAL when the directory cannot be written
     */
    static ModelOverrideDirectory write(final String model, final ModelConfig config, final Map<String, byte[]> files,
        final Path repository)
    {
        final Path root;
        try
        {
            root = Files.createTempDirectory("ingot-model-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        catch (final UnsupportedOperationException notPosix)
        {
            return writeInto(createTemporary(), model, config, files, repository);
        }
        catch (final IOException e)
        {
            throw cannotWrite(model, e);
        }
        return writeInto(root, model, config, files, repository);
    }

    private static Path createTemporary()
    {
        try
        {
            return Files.createTempDirectory("ingot-model-");
        }
        catch (final IOException e)
        {
            throw new InferenceException(ErrorCode.INTERNAL, "cannot create a temporary model directory: " + e, e);
        }
    }

    private static ModelOverrideDirectory writeInto(final Path root, final String model, final ModelConfig config,
        final Map<String, byte[]> files, final Path repository)
    {
        final ModelOverrideDirectory directory = new ModelOverrideDirectory(root, root.resolve(model));
        try
        {
            Files.createDirectory(directory.modelDirectory);
            if (files.isEmpty())
            {
                directory.linkEntriesOf(repository);
            }
            for (final Map.Entry<String, byte[]> file : files.entrySet())
            {
                directory.writeFile(file.getKey(), file.getValue());
            }
            Files.writeString(directory.modelDirectory.resolve(ModelRepository.CONFIG_FILENAME),
                TextFormat.printer().printToString(config));
            return directory;
        }
        catch (final IOException e)
        {
            directory.close();
            throw cannotWrite(model, e);
        }
        catch (final RuntimeException e)
        {
            directory.close();
            throw e;
        }
    }

    /**
     * Triton's text for a load whose files cannot be laid out (its {@code filesystem_error}, e.g. a {@code file:}
     * name longer than the file system allows, ends the poll), then why, without the path: it holds the client's
     * file name, which may be as long as the request.
     */
    private static InferenceException cannotWrite(final String model, final IOException e)
    {
        final String reason = e instanceof FileSystemException system && system.getReason() != null
            ? system.getReason() : e.getClass().getSimpleName();
        return new InferenceException(ErrorCode.INTERNAL, "failed to load '" + model
            + "', failed to poll from model repository: cannot write its overrides to a temporary model directory ("
            + reason + ")", e);
    }

    private void linkEntriesOf(final Path repository) throws IOException
    {
        try (Stream<Path> entries = Files.list(repository))
        {
            for (final Path entry : (Iterable<Path>) entries::iterator)
            {
                final String name = entry.getFileName().toString();
                // The override replaces the configuration, including an alternative one under configs/.
                if (!name.equals(ModelRepository.CONFIG_FILENAME) && !name.equals(ModelRepository.CONFIGS_DIRECTORY))
                {
                    Files.createSymbolicLink(modelDirectory.resolve(name), entry.toAbsolutePath());
                }
            }
        }
    }

    private void writeFile(final String relative, final byte[] content) throws IOException
    {
        final Path target;
        try
        {
            target = modelDirectory.resolve(relative).normalize();
        }
        catch (final InvalidPathException e)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Invalid file parameter '" + relative + "': "
                + e.getMessage());
        }
        if (!target.startsWith(modelDirectory) || target.equals(modelDirectory))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Invalid file parameter 'file:" + relative
                + "' with normalized path '" + target + "' must stay within model directory.");
        }
        final Path parent = target.getParent();
        if (Files.exists(parent) && !Files.isDirectory(parent))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Invalid file parameter 'file:" + relative
                + "', directory has been created as a file");
        }
        Files.createDirectories(parent);
        if (Files.isDirectory(target))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Invalid file parameter 'file:" + relative
                + "', a directory of that name was created by another file parameter");
        }
        Files.write(target, content);
    }

    /** @return the directory to scan as a repository: it holds the one model directory */
    Path repositoryRoot()
    {
        return root;
    }

    /** Deletes the directory and everything in it (the links, never what they point to). Idempotent. */
    @Override
    public void close()
    {
        if (!Files.exists(root))
        {
            return;
        }
        try
        {
            Files.walkFileTree(root, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                    throws IOException
                {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path directory, final IOException failure)
                    throws IOException
                {
                    Files.delete(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        catch (final IOException e)
        {
            LOG.log(System.Logger.Level.WARNING, "cannot delete the temporary model directory '" + root + "': " + e);
        }
    }
}
