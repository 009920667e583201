package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The article's TensorFlow models in the example repository, as a user meets them: {@code ingot models validate
 * examples/models} lists {@code my_model} and {@code priority_model} as valid SavedModel models, and the article's
 * client program ({@code clients/python/seed_flow_http.py}) gets correct, batched answers from {@code my_model}
 * served over HTTP with its configuration unchanged.
 */
class TensorFlowExamplesTest
{
    /** The example repository, as this module's tests see it (Maven runs them in cli/). */
    private static final Path EXAMPLES = Path.of("..", "examples", "models");

    @Test
    void validateListsTheArticlesModelsAsValid()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = IngotCli.run(new String[] {"models", "validate", EXAMPLES.toString()}, CoreOpener.DEFAULT,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8) + table);
        for (final String model : new String[] {"my_model", "priority_model"})
        {
            final String row = table.lines().filter(line -> line.startsWith(model + " ")).findFirst()
                .orElseThrow(() -> new AssertionError(model + " is not listed:\n" + table));
            assertTrue(row.contains("tensorflow_savedmodel"), row);
            assertTrue(row.contains("dynamic (max 8, preferred [4,8], delay 2000us"), row);
        }
    }

    @Test
    void theArticlesClientGetsCorrectAnswersFromMyModel(@TempDir final Path repository) throws Exception
    {
        final String python = ChildProcess.python3();
        Assumptions.assumeTrue(python != null, "python3 is not installed: the article's client program is skipped");
        final Path example = EXAMPLES.resolve("my_model");
        final Path model = copy(example, repository.resolve("my_model"));
        assertArrayEquals(Files.readAllBytes(example.resolve("config.pbtxt")),
            Files.readAllBytes(model.resolve("config.pbtxt")), "the article's configuration is served unchanged");
        final Path script = Path.of("..", "clients", "python", "seed_flow_http.py").toAbsolutePath().normalize();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
            ServerFrontends frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, -1, -1)))
        {
            assertTrue(core.isModelReady("my_model", -1), () -> core.repositoryIndex(false).toString());
            try (ChildProcess client = ChildProcess.start(List.of(python, script.toString(),
                "http://127.0.0.1:" + frontends.httpPort(), "my_model")))
            {
                assertEquals(0, client.awaitExit(120), client.output());
                final String output = client.output();
                assertTrue(output.contains("10 requests answered correctly"), output);
            }
        }
    }

    private static Path copy(final Path from, final Path to) throws IOException
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
                    Files.copy(path, target);
                }
            }
        }
        return to;
    }
}
