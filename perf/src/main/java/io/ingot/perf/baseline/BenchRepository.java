package io.ingot.perf.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A temporary model repository holding one model whose configuration the comparison chooses (instances, threads,
 * batching), so that Ingot and the direct baseline run with settings stated in the report rather than whatever the
 * example repository says.
 */
final class BenchRepository implements AutoCloseable
{
    private final Path root;

    private BenchRepository(final Path root)
    {
        this.root = root;
    }

    /**
     * @param name      the model's name (its directory)
     * @param config    its {@code config.pbtxt}
     * @param modelFile the file (or folder) to link into version 1, or {@code null} for a backend without files
     * @param linkName  the name it gets there ({@code model.onnx}, {@code model.pt}, {@code xgboost.json},
     *                  {@code model.savedmodel})
     * @return the repository
     */
    static BenchRepository create(final String name, final String config, final Path modelFile,
        final String linkName)
    {
        try
        {
            final Path root = Files.createTempDirectory("ingot-bench-repo");
            final Path version = Files.createDirectories(root.resolve(name).resolve("1"));
            Files.writeString(root.resolve(name).resolve("config.pbtxt"), config);
            if (modelFile != null)
            {
                Files.createSymbolicLink(version.resolve(linkName), modelFile.toAbsolutePath());
            }
            return new BenchRepository(root);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary model repository", ex);
        }
    }

    /** @return the repository's root. */
    Path root()
    {
        return root;
    }

    /** Deletes the repository (the linked model file stays). */
    @Override
    public void close()
    {
        delete(root);
    }

    /**
     * Deletes a folder and everything in it, links themselves but not what they point at.
     *
     * @param root the folder
     */
    static void delete(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + root, ex);
        }
    }
}
