package io.ingot.server.testing;

import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The configurations of the bundled repository ({@code examples/models}), for tests that serve them in memory. */
public final class ExampleModels
{
    private ExampleModels()
    {
    }

    /** @return the bundled repository ({@code -Dingot.examples}, else {@code ../examples/models}) */
    public static Path repository()
    {
        final Path root = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        return Files.isDirectory(root) ? root : Path.of("../../examples/models");
    }

    /**
     * @param model a model of the bundled repository
     * @return its parsed {@code config.pbtxt}
     */
    public static ModelConfig config(final String model)
    {
        try
        {
            return TestModels.config(Files.readString(repository().resolve(model).resolve("config.pbtxt")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
