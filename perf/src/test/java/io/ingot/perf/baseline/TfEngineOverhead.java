package io.ingot.perf.baseline;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.perf.LoadClient;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.RequestInputs;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.TensorFlowBackendFactory;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the TensorFlow backend's engine itself costs per batch, without the runtime's threads: one thread alternates
 * between {@code SavedModelEngine.execute} on a batch of one (input lent, outputs copied into the batch's memory) and
 * the same run through the C API directly ({@link TfDirectTarget}'s client: {@code TF_NewTensor} over the same bytes,
 * {@code TF_SessionRun}, outputs deleted unread), in rounds, and prints the median time per call of each. Not a test
 * (performance is never asserted); run it, after {@code mvn -pl cli -am package} and the perf module's test-compile,
 * with
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp "perf/target/test-classes:test-support/target/classes:$(cat
 *     cli/target/classpath.txt)" io.ingot.perf.baseline.TfEngineOverhead [simple|mlp] [rounds] [ms per round]
 * </pre>
 */
public final class TfEngineOverhead
{
    private TfEngineOverhead()
    {
    }

    /**
     * @param args model ({@code simple} or {@code mlp}), rounds, milliseconds per round and side
     * @throws Exception when the model cannot be loaded or run
     */
    public static void main(final String[] args) throws Exception
    {
        final String model = args.length > 0 ? args[0] : "mlp";
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        final long millis = args.length > 2 ? Long.parseLong(args[2]) : 1500;
        final Path savedModel = Files.createTempDirectory("ingot-tf-overhead").resolve("model.savedmodel");
        TfBenchModels.model(model, 7).write(savedModel);
        final ModelConfig config = TestModels.config("name: '" + model + "' platform: 'tensorflow_savedmodel'"
            + " max_batch_size: 16 " + TfBenchModels.io(model)
            + " parameters { key: 'TF_NUM_INTRA_THREADS' value { string_value: '1' } }"
            + " parameters { key: 'TF_NUM_INTER_THREADS' value { string_value: '1' } }");
        final ModelContext context = TestModels.context(config, savedModel);
        try (Backend backend = new TensorFlowBackendFactory().load(context);
            Engine engine = backend.createEngine(TestModels.cpuInstance(context, 0));
            TfDirectTarget direct = new TfDirectTarget(savedModel, 1, 1);
            Arena arena = Arena.ofShared())
        {
            final LoadTarget.ModelInfo info = direct.modelInfo();
            final RequestInputs inputs = RequestInputs.resolve(model, "", info.maxBatchSize(), info.inputs(),
                info.outputs(), 1, Map.of(), Map.of(), 1);
            direct.prepare(inputs);
            final LoadClient client = direct.newClient();
            final List<MemorySegment> data = new ArrayList<>();
            for (final RequestInputs.Tensor tensor : inputs.inputs())
            {
                final MemorySegment bytes = arena.allocate(tensor.data().length, 64);
                MemorySegment.copy(tensor.data(), 0, bytes, ValueLayout.JAVA_BYTE, 0, tensor.data().length);
                data.add(bytes);
            }
            final double[] engineNs = new double[rounds];
            final double[] directNs = new double[rounds];
            for (int round = -1; round < rounds; round++)
            {
                final double e = perCall(millis, () ->
                {
                    try (FakeBatch batch = new FakeBatch(config, 1, arena))
                    {
                        for (int i = 0; i < inputs.inputs().size(); i++)
                        {
                            final RequestInputs.Tensor tensor = inputs.inputs().get(i);
                            batch.input(tensor.name(), DataType.FP32, tensor.shape(), data.get(i));
                        }
                        engine.execute(batch);
                    }
                });
                final double d = perCall(millis, () ->
                {
                    final String error = client.call();
                    if (error != null)
                    {
                        throw new IllegalStateException(error);
                    }
                });
                if (round >= 0)
                {
                    engineNs[round] = e;
                    directNs[round] = d;
                }
            }
            Arrays.sort(engineNs);
            Arrays.sort(directNs);
            final double engineMedian = engineNs[rounds / 2];
            final double directMedian = directNs[rounds / 2];
            System.out.printf(Locale.ROOT, "model %s, batch 1, %d rounds of %d ms each, one thread%n", model, rounds,
                millis);
            System.out.printf(Locale.ROOT, "engine.execute   median %.1f us/call (rounds %s)%n", engineMedian / 1e3,
                text(engineNs));
            System.out.printf(Locale.ROOT, "C API direct     median %.1f us/call (rounds %s)%n", directMedian / 1e3,
                text(directNs));
            System.out.printf(Locale.ROOT, "engine - direct  %.1f us/call (%.2fx)%n",
                (engineMedian - directMedian) / 1e3, engineMedian / directMedian);
        }
    }

    /** A call to time. */
    @FunctionalInterface
    private interface Call
    {
        void run() throws Exception;
    }

    private static double perCall(final long millis, final Call call) throws Exception
    {
        final long end = System.nanoTime() + millis * 1_000_000;
        long calls = 0;
        final long start = System.nanoTime();
        long now = start;
        while (now < end)
        {
            call.run();
            calls++;
            now = System.nanoTime();
        }
        return (double) (now - start) / calls;
    }

    private static String text(final double[] nanos)
    {
        final StringBuilder text = new StringBuilder();
        for (final double value : nanos)
        {
            text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", value / 1e3));
        }
        return text.toString();
    }
}
