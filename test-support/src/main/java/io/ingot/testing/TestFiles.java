package io.ingot.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Files for tests: copying a model directory or a corpus into a test's own folder. Stateless. */
public final class TestFiles
{
    private TestFiles()
    {
    }

    /**
     * Copies a folder's tree (or one file) to a path that does not exist yet, creating its parents.
     *
     * @param from the folder or file
     * @param to   where it goes
     * @return {@code to}
     * @throws IOException when it cannot be copied
     */
    public static Path copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : paths.toList())
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.createDirectories(target.getParent());
                    Files.copy(path, target);
                }
            }
        }
        return to;
    }
}
