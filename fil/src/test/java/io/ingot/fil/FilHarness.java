package io.ingot.fil;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocators;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;

import java.nio.file.Files;
import java.nio.file.Path;

/** Loads a FIL model directory with the factory, as the runtime would, and runs batches on one of its engines. */
final class FilHarness implements AutoCloseable
{
    final ModelConfig config;
    final Backend backend;
    final Engine engine;

    private FilHarness(final ModelConfig config, final Backend backend, final Engine engine)
    {
        this.config = config;
        this.backend = backend;
        this.engine = engine;
    }

    /**
     * @param modelDirectory {@code <repo>/<model>} with {@code config.pbtxt} and {@code 1/}
     */
    static FilHarness open(final Path modelDirectory) throws Exception
    {
        final ModelConfig config = TestModels.config(Files.readString(modelDirectory.resolve("config.pbtxt")));
        final Backend backend = new FilBackendFactory().load(context(config, modelDirectory));
        return new FilHarness(config, backend, backend.createEngine(TestModels.cpuInstance(context(config,
            modelDirectory), 0)));
    }

    /** @return what the runtime hands a backend: the version directory and the file it would guess. */
    static ModelContext context(final ModelConfig config, final Path modelDirectory)
    {
        final Path version = modelDirectory.resolve("1");
        final Path guessed = version.resolve(config.getDefaultModelFilename().isEmpty() ? "model.fil"
            : config.getDefaultModelFilename());
        return new ModelContext(config.getName(), 1, config, version, guessed, PinnedAllocators.automatic());
    }

    /** Runs one batch of FP32 rows and returns {@code output__0}. */
    float[] run(final float[] rows, final int features) throws Exception
    {
        return run(DataType.FP32, rows, rows.length / features, features);
    }

    /** Runs one batch of rows of any element type and returns {@code output__0}. */
    float[] run(final DataType type, final Object rows, final int count, final int features) throws Exception
    {
        try (FakeBatch batch = new FakeBatch(config, count))
        {
            batch.input("input__0", type, new long[] {count, features}, rows);
            engine.execute(batch);
            return batch.floats("output__0");
        }
    }

    @Override
    public void close() throws Exception
    {
        engine.close();
        backend.close();
    }
}
