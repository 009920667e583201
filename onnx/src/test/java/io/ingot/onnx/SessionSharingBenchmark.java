package io.ingot.onnx;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures, by hand, whether the instances of a model run faster sharing one ONNX Runtime session or each with its
 * own: N instance threads execute batches back to back through {@link OnnxEngine}s for a fixed time, and the
 * completed inferences per second (and the process CPU time per inference, which counts ONNX Runtime's spinning
 * threads too) are compared. Modes are interleaved over several rounds so that drift in the
 * machine's load hits both alike. Not a test (performance is never asserted); run it from the repository root with
 * <pre>
 * mvn -B -q -pl onnx -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java --enable-native-access=ALL-UNNAMED -Xmx1g \
 *     -cp onnx/target/test-classes:onnx/target/classes:$(cat onnx/target/test.classpath) \
 *     io.ingot.onnx.SessionSharingBenchmark $PWD/examples/models 2 5 6
 * </pre>
 * (the results of 2026-12-01 and their reading: {@code onnx/README.md}, "Shared or per-instance sessions").
 * Arguments: the example repository, instances, rounds, seconds per measurement, and optionally a text the
 * workload names must contain (e.g. {@code resnet50}).
 */
public final class SessionSharingBenchmark
{
    private SessionSharingBenchmark()
    {
    }

    /**
     * @param args repository, instances, rounds, seconds
     * @throws Exception when a model cannot be loaded or run
     */
    public static void main(final String[] args) throws Exception
    {
        final Path repository = Path.of(args.length > 0 ? args[0] : "examples/models");
        final int instances = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        final int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        final String only = args.length > 4 ? args[4] : "";
        System.out.printf("cores=%d instances=%d rounds=%d seconds=%d%n", Runtime.getRuntime().availableProcessors(),
            instances, rounds, seconds);

        final List<Workload> workloads = List.of(
            new Workload("resnet50 batch 1", repository.resolve("resnet50/1/model.onnx"), RESNET, 1, 0),
            new Workload("resnet50 batch 4", repository.resolve("resnet50/1/model.onnx"), RESNET, 4, 0),
            new Workload("minilm batch 8 x 64 tokens", repository.resolve("minilm/1/model.onnx"), MINILM, 8, 64),
            new Workload("minilm batch 1 x 16 tokens", repository.resolve("minilm/1/model.onnx"), MINILM, 1, 16));
        for (final Workload workload : workloads)
        {
            if (!workload.name().contains(only))
            {
                continue;
            }
            final double[][] rates = new double[2][rounds];
            final double[][] cpu = new double[2][rounds];
            final double[][] loadMillis = new double[2][rounds];
            final double[][] residentMegabytes = new double[2][rounds];
            for (int round = 0; round < rounds; round++)
            {
                for (int mode = 0; mode < 2; mode++)
                {
                    final boolean share = (round + mode) % 2 == 0;
                    final double[] result = measure(workload, share, instances, seconds);
                    rates[share ? 0 : 1][round] = result[0];
                    cpu[share ? 0 : 1][round] = result[1];
                    loadMillis[share ? 0 : 1][round] = result[2];
                    residentMegabytes[share ? 0 : 1][round] = result[3];
                }
            }
            System.out.printf("%-28s inferences/s shared %s per-instance %s; median %.1f vs %.1f;"
                + " CPU ms/inference median %.1f vs %.1f (load average %.1f)%n", workload.name(), text(rates[0]),
                text(rates[1]), median(rates[0]), median(rates[1]), median(cpu[0]), median(cpu[1]),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf("%-28s load + instances ms median %.0f vs %.0f; resident memory added MB median %.0f vs"
                + " %.0f%n", "", median(loadMillis[0]), median(loadMillis[1]), median(residentMegabytes[0]),
                median(residentMegabytes[1]));
        }
    }

    /**
     * @return inferences per second, process CPU milliseconds per inference, milliseconds to load the model and
     *         create its instances, and the resident memory (MB) that loading and the first batches added
     */
    private static double[] measure(final Workload workload, final boolean share, final int instances,
        final int seconds) throws Exception
    {
        final ModelConfig config = workload.config(share);
        final ModelContext context = new ModelContext(config.getName(), 1, config, workload.file().getParent(),
            workload.file(), null);
        final long residentBefore = residentKilobytes();
        final long loadStart = System.nanoTime();
        final Backend backend = new OnnxBackendFactory().load(context);
        final List<Engine> engines = new ArrayList<>();
        try (Arena arena = Arena.ofShared())
        {
            for (int i = 0; i < instances; i++)
            {
                engines.add(backend.createEngine(new InstanceContext(context, "bench_" + i, i,
                    ModelInstanceGroup.Kind.KIND_CPU, -1, List.of())));
            }
            final double loadMillis = (System.nanoTime() - loadStart) / 1e6;
            final AtomicBoolean measuring = new AtomicBoolean();
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong completed = new AtomicLong();
            final CountDownLatch done = new CountDownLatch(instances);
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (final Engine engine : engines)
            {
                final FakeBatch batch = workload.batch(config, arena);
                Thread.ofPlatform().start(() ->
                {
                    try
                    {
                        while (!stop.get())
                        {
                            engine.execute(batch);
                            batch.allocations().clear();
                            if (measuring.get())
                            {
                                completed.addAndGet(workload.batchSize());
                            }
                        }
                    }
                    catch (final Throwable e)
                    {
                        failures.add(e);
                    }
                    finally
                    {
                        done.countDown();
                    }
                });
            }
            Thread.sleep(2_000);
            final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            measuring.set(true);
            final long start = System.nanoTime();
            final long cpuStart = os.getProcessCpuTime();
            Thread.sleep(seconds * 1_000L);
            measuring.set(false);
            final double elapsed = (System.nanoTime() - start) / 1e9;
            final double cpuMillis = (os.getProcessCpuTime() - cpuStart) / 1e6;
            stop.set(true);
            done.await();
            if (!failures.isEmpty())
            {
                throw new IllegalStateException("benchmark failed", failures.getFirst());
            }
            final double addedMegabytes = (residentKilobytes() - residentBefore) / 1024.0;
            return new double[] {completed.get() / elapsed, cpuMillis / Math.max(1, completed.get()), loadMillis,
                addedMegabytes};
        }
        finally
        {
            for (final Engine engine : engines)
            {
                engine.close();
            }
            backend.close();
        }
    }

    /** @return this process's resident set size (VmRSS), in kB, or 0 where /proc is not available */
    private static long residentKilobytes()
    {
        try
        {
            for (final String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        }
        catch (final java.io.IOException | NumberFormatException e)
        {
            return 0;
        }
        return 0;
    }

    private static String text(final double[] rates)
    {
        final StringBuilder text = new StringBuilder("[");
        for (final double rate : rates)
        {
            text.append(text.length() == 1 ? "" : " ").append(String.format("%.1f", rate));
        }
        return text.append(']').toString();
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
            : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static final String RESNET = """
        name: "resnet50" backend: "onnxruntime" max_batch_size: 8
        input { name: "input" data_type: TYPE_FP32 dims: [3, 224, 224] }
        output { name: "logits" data_type: TYPE_FP32 dims: [1000] }
        """;

    private static final String MINILM = """
        name: "minilm" backend: "onnxruntime" max_batch_size: 16
        input { name: "input_ids" data_type: TYPE_INT64 dims: [-1] }
        input { name: "attention_mask" data_type: TYPE_INT64 dims: [-1] }
        input { name: "token_type_ids" data_type: TYPE_INT64 dims: [-1] }
        output { name: "last_hidden_state" data_type: TYPE_FP32 dims: [-1, 384] }
        """;

    /** One model and batch shape to measure. */
    private record Workload(String name, Path file, String configText, int batchSize, int tokens)
    {
        ModelConfig config(final boolean share)
        {
            return TestModels.config(configText + "parameters { key: \"share_session_between_instances\" value {"
                + " string_value: \"" + share + "\" } }");
        }

        FakeBatch batch(final ModelConfig config, final Arena arena)
        {
            final SplittableRandom random = new SplittableRandom(42);
            final FakeBatch batch = new FakeBatch(config, batchSize, arena);
            if (tokens == 0)
            {
                final float[] pixels = new float[batchSize * 3 * 224 * 224];
                for (int i = 0; i < pixels.length; i++)
                {
                    pixels[i] = (float) random.nextDouble(-1, 1);
                }
                return batch.input("input", DataType.FP32, new long[] {batchSize, 3, 224, 224}, pixels);
            }
            final long[] ids = new long[batchSize * tokens];
            final long[] mask = new long[ids.length];
            for (int i = 0; i < ids.length; i++)
            {
                ids[i] = i % tokens == 0 ? 101 : 1000 + random.nextInt(20_000);
                mask[i] = 1;
            }
            final long[] shape = {batchSize, tokens};
            return batch.input("input_ids", DataType.INT64, shape, ids)
                .input("attention_mask", DataType.INT64, shape, mask)
                .input("token_type_ids", DataType.INT64, shape, new long[ids.length]);
        }
    }
}
