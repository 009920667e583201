package io.ingot.onnx;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelStatistics;
import io.ingot.testing.ThreadDumps;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example repository the build fills in ({@code examples/models}), and cores serving models of it. */
final class ExampleRepository
{
    private ExampleRepository()
    {
    }

    /** @return the example repository (the surefire property {@code ingot.examples}, or the relative path). */
    static Path root()
    {
        final Path root = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        assertTrue(Files.isDirectory(root), "example repository " + root.toAbsolutePath() + " is missing");
        return root;
    }

    /**
     * @param model a model of the example repository
     * @return its model file, which the build must have produced
     */
    static Path modelFile(final String model)
    {
        final Path file = root().resolve(model).resolve("1").resolve("model.onnx");
        assertTrue(Files.isRegularFile(file), file + " is missing: the onnx module's build writes it");
        return file;
    }

    /**
     * @param model a model of the example repository
     * @return a core serving only that model
     */
    static InferenceCore open(final String model)
    {
        final InferenceCore core = InferenceCore.open(CoreOptions.builder()
            .modelRepository(root())
            .controlMode(ModelControlMode.EXPLICIT)
            .startupModel(model)
            .build());
        assertTrue(core.isModelReady(model, -1), () -> model + " did not load: " + core.repositoryIndex(false));
        return core;
    }

    /**
     * Closes a core, failing (instead of hanging the build) when closing does not finish within two minutes. The
     * closing thread is a daemon, so a stuck close cannot keep the test JVM alive.
     *
     * @param core the core
     * @throws InterruptedException when interrupted while waiting
     */
    static void close(final InferenceCore core) throws InterruptedException
    {
        final Thread closer = Thread.ofPlatform().daemon().name("core-closer").start(core::close);
        closer.join(java.time.Duration.ofMinutes(2));
        if (closer.isAlive())
        {
            org.junit.jupiter.api.Assertions.fail("InferenceCore.close() did not return within 2 minutes;"
                + " runtime threads:" + ThreadDumps.of("ingot-"));
        }
    }

    /**
     * @param core  a core
     * @param model one of its models
     * @return the model's statistics (its default version)
     */
    static ModelStatistics statistics(final InferenceCore core, final String model)
    {
        return core.modelStatistics(model, -1).getFirst();
    }

    /**
     * @param statistics a model's statistics
     * @return the largest batch size it executed
     */
    static long largestBatch(final ModelStatistics statistics)
    {
        return statistics.batchStats().stream().mapToLong(batch -> batch.batchSize()).max().orElse(0);
    }
}
