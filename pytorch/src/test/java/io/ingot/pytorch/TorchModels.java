package io.ingot.pytorch;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.pytorch.script.ScriptModule;
import io.ingot.pytorch.script.ScriptTensor;
import io.ingot.pytorch.script.TorchScriptWriter;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** TorchScript test modules, written by the module's own writer, and loaders of them through the backend. */
final class TorchModels
{
    private TorchModels()
    {
    }

    /** {@code forward(x) = x * 2.0 + 1.0}, argument {@code INPUT__0}. */
    static ScriptModule affine()
    {
        return ScriptModule.builder("Affine").argument("INPUT__0", "Tensor")
            .body("return torch.add(torch.mul(INPUT__0, 2.0), 1.0)").build();
    }

    /**
     * Triton's add_sub: {@code (a + b, a - b)}.
     *
     * @param first  the first argument's name
     * @param second the second argument's name
     * @return the module
     */
    static ScriptModule addSub(final String first, final String second)
    {
        return ScriptModule.builder("AddSub").argument(first, "Tensor").argument(second, "Tensor")
            .returns("Tuple[Tensor, Tensor]")
            .body("return (torch.add(" + first + ", " + second + "), torch.sub(" + first + ", " + second + "))")
            .build();
    }

    /** {@code forward(x) = x @ weight.T + bias} with a [3, 2] weight and a [3] bias. */
    static ScriptModule linear()
    {
        return ScriptModule.builder("Linear").argument("x", "Tensor")
            .parameter("weight", ScriptTensor.ofFloats(new long[] {3, 2}, 1, 2, 3, 4, 5, 6))
            .parameter("bias", ScriptTensor.ofFloats(new long[] {3}, 0.5f, -0.5f, 10))
            .body("return torch.linear(x, self.weight, self.bias)").build();
    }

    /**
     * @param module the module
     * @param dir    a temporary directory
     * @return {@code <dir>/1/model.pt} holding it
     * @throws IOException when it cannot be written
     */
    static Path write(final ScriptModule module, final Path dir) throws IOException
    {
        final Path file = dir.resolve("1").resolve("model.pt");
        TorchScriptWriter.write(module, file);
        return file;
    }

    /**
     * @param pbtxt the configuration
     * @param file  the model file
     * @return the model, loaded by the backend
     * @throws ModelLoadException when it does not load
     */
    static Backend load(final String pbtxt, final Path file) throws ModelLoadException
    {
        return new PyTorchBackendFactory().load(context(pbtxt, file));
    }

    static ModelContext context(final String pbtxt, final Path file)
    {
        final ModelConfig config = TestModels.config(pbtxt);
        return TestModels.context(config, file);
    }

    /**
     * @param backend a loaded model
     * @param index   instance index
     * @return a CPU instance's engine
     * @throws Exception when it cannot be created
     */
    static Engine engine(final Backend backend, final ModelContext context, final int index) throws Exception
    {
        return backend.createEngine(TestModels.cpuInstance(context, index));
    }

    /**
     * A model loaded by the backend with one CPU instance and a batch for it; closing it closes all three.
     *
     * @param backend the loaded model
     * @param engine  its instance
     * @param batch   a batch of its configuration
     */
    record Loaded(Backend backend, Engine engine, FakeBatch batch) implements AutoCloseable
    {
        /**
         * @param module    the module, written to {@code <dir>/1/model.pt}
         * @param pbtxt     the configuration
         * @param dir       a temporary directory
         * @param batchSize the batch's size
         * @return the loaded model
         * @throws Exception when it does not load
         */
        static Loaded of(final ScriptModule module, final String pbtxt, final Path dir, final int batchSize)
            throws Exception
        {
            final ModelContext context = context(pbtxt, write(module, dir));
            final Backend backend = new PyTorchBackendFactory().load(context);
            try
            {
                return new Loaded(backend, TorchModels.engine(backend, context, 0),
                    new FakeBatch(context.config(), batchSize));
            }
            catch (final Exception | Error e)
            {
                backend.close();
                throw e;
            }
        }

        /**
         * Executes the batch.
         *
         * @return the batch, for reading its outputs
         * @throws Exception when the engine fails it
         */
        FakeBatch run() throws Exception
        {
            engine.execute(batch);
            return batch;
        }

        @Override
        public void close() throws Exception
        {
            try (backend; engine; batch)
            {
                // closes the batch, the engine, then the model
            }
        }
    }

    static byte[] littleEndianFloats(final float... values)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : values)
        {
            bytes.putFloat(value);
        }
        return bytes.array();
    }
}
