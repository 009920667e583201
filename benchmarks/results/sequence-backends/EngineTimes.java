import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.pytorch.PyTorchBackendFactory;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.TensorFlowBackendFactory;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The engines of the PyTorch and TensorFlow backends alone, without the runtime's threads: one thread calls
 * {@code Engine.execute} on a batch of one of a model WITHOUT sequences (torch_mlp, my_model of the example
 * repository) for a number of milliseconds, and prints the median time per call of each of five such slices. Run by
 * engine-ab.sh with the class path of each build in turn (the single-file source launcher), so that the same code
 * times the code before and after the change.
 */
public final class EngineTimes
{
    public static void main(final String[] args) throws Exception
    {
        final Path models = Path.of(args[0]);
        final long millis = Long.parseLong(args[1]);
        time("torch_mlp", new PyTorchBackendFactory(), models.resolve("torch_mlp"), "1/model.pt", millis,
            new String[] {"INPUT__0"});
        time("my_model", new TensorFlowBackendFactory(), models.resolve("my_model"), "1/model.savedmodel", millis,
            new String[] {"INPUT0", "INPUT1"});
    }

    private static void time(final String name, final BackendFactory factory, final Path directory,
        final String file, final long millis, final String[] inputs) throws Exception
    {
        final ModelConfig config = TestModels.config(Files.readString(directory.resolve("config.pbtxt")));
        final ModelContext context = TestModels.context(config, directory.resolve(file));
        try (Backend backend = factory.load(context); Engine engine = backend.createEngine(
            TestModels.cpuInstance(context, 0)); Arena arena = Arena.ofShared();
            FakeBatch batch = new FakeBatch(config, 1))
        {
            for (final String input : inputs)
            {
                final MemorySegment data = arena.allocate(64, 64);
                for (int i = 0; i < 16; i++)
                {
                    data.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, i * 0.25f);
                }
                batch.input(input, DataType.FP32, new long[] {1, 16}, data);
            }
            for (final var output : config.getOutputList())
            {
                // Preset output memory: the batch is reused for every call and allocates nothing.
                batch.outputInto(output.getName(), arena.allocate(output.getDims(0) * 4, 64));
            }
            final double[] medians = new double[5];
            for (int slice = -1; slice < medians.length; slice++)
            {
                final long[] calls = new long[1 << 20];
                int count = 0;
                final long end = System.nanoTime() + millis * 1_000_000L;
                while (System.nanoTime() < end && count < calls.length)
                {
                    final long start = System.nanoTime();
                    engine.execute(batch);
                    calls[count++] = System.nanoTime() - start;
                }
                if (slice >= 0)
                {
                    final long[] sorted = Arrays.copyOf(calls, count);
                    Arrays.sort(sorted);
                    medians[slice] = sorted[count / 2] / 1000.0;
                }
            }
            Arrays.sort(medians);
            System.out.printf("%s median of slice medians %.2f us (slices %s)%n", name, medians[2],
                Arrays.toString(medians));
        }
    }
}
