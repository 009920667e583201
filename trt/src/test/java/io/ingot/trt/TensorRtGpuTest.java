package io.ingot.trt;

import io.ingot.tensor.DataType;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.backend.ModelVersion;
import io.ingot.testing.GpuTest;
import io.ingot.testing.TestModels;
import io.ingot.trt.shim.ShimLocation;
import io.ingot.trt.shim.TrtShim;
import io.ingot.trt.testing.ShimSources;
import io.ingot.trt.testing.Models;
import io.ingot.trt.testing.OnnxModels;
import io.ingot.testing.FakeBatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The TensorRT backend on a real GPU with real TensorRT: builds the shim with {@code build.sh}, builds an engine
 * from an ONNX add/sub model with {@code trtexec}, and serves it. Tagged {@code gpu}; skipped with the printed
 * reason where there is no GPU, no TensorRT, no {@code trtexec}, or when this JVM bound the shim's test double.
 */
@GpuTest
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class TensorRtGpuTest
{
    private static final int WIDTH = 16;

    @TempDir
    static Path work;

    private static Path plan;

    @BeforeAll
    static void buildShimAndEngine() throws Exception
    {
        final Path sources = ShimSources.find();
        skipUnless(sources != null, "the shim's sources (trt/src/main/native) are not reachable from "
            + Path.of("").toAbsolutePath() + "; set -Dingot.trt.native.dir");
        final Path trtexec = findTrtexec();
        skipUnless(trtexec != null, "trtexec not found on PATH, in $TENSORRT_HOME/bin, /usr/src/tensorrt/bin, "
            + "/usr/local/tensorrt/bin or /opt/tensorrt/bin");

        final Path shimDir = work.resolve("native");
        final Run build = run(List.of("bash", sources.resolve("build.sh").toString(), shimDir.toString()),
            List.of("INGOT_TRT_SHIM_REQUIRED=1"), 300);
        skipUnless(build.exit() != 2, "TensorRT headers or libraries not found: " + build.output().strip());
        assertEquals(0, build.exit(), "build.sh failed:\n" + build.output());
        final Path shim = shimDir.resolve(ShimLocation.FILE_NAME);
        if (System.getProperty(ShimLocation.PATH_PROPERTY) == null)
        {
            System.setProperty(ShimLocation.PATH_PROPERTY, shim.toString());
        }
        skipUnless(TrtShim.isAvailable() && TrtShim.location().orElse("").equals(shim.toString()),
            "TrtShim in this JVM is bound to " + TrtShim.location().orElse("nothing") + " ("
                + TrtShim.unavailableReason().orElse("available") + "), not to " + shim
                + "; run the gpu tests in a JVM of their own (-Dgroups=gpu)");
        System.out.println("TensorRtGpuTest: " + TrtShim.describe() + ", loaded TensorRT " + TrtShim.libVersion());

        final Path onnx = Files.write(work.resolve("add_sub.onnx"), OnnxModels.addSub(WIDTH));
        plan = Files.createDirectories(work.resolve("addsub/1")).resolve(TensorRtBackendFactory.MODEL_FILE);
        final String shapes = "INPUT0:%1$dx" + WIDTH + ",INPUT1:%1$dx" + WIDTH;
        final Run engine = run(List.of(trtexec.toString(), "--onnx=" + onnx, "--saveEngine=" + plan,
            "--minShapes=" + shapes.formatted(1), "--optShapes=" + shapes.formatted(8),
            "--maxShapes=" + shapes.formatted(32), "--skipInference"), List.of(), 420);
        assertEquals(0, engine.exit(), "trtexec failed:\n" + engine.output());
    }

    @Test
    void servesAnEngineBuiltByTrtexec() throws Exception
    {
        final TensorRtBackendFactory factory = new TensorRtBackendFactory();
        final ModelConfig completed = factory.autoComplete(TestModels.config(
            "name: \"addsub\" platform: \"tensorrt_plan\""), plan.getParent().getParent(),
            List.of(new ModelVersion(1, plan.getParent(), plan)));
        assertEquals(4, completed.getMaxBatchSize(), completed.toString());
        assertEquals(List.of((long) WIDTH), completed.getInput(0).getDimsList());
        final ModelConfig config = completed.toBuilder().setMaxBatchSize(32).build();
        final ModelContext model = TestModels.context(config, plan);
        final SplittableRandom random = new SplittableRandom(System.nanoTime());
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (final int batchSize : new int[] {1, 5, 32, 8})
            {
                check(engine, config, batchSize, random);
            }
        }
    }

    @Test
    void capturesACudaGraphPerShapeAndStaysCorrect() throws Exception
    {
        final TensorRtBackendFactory factory = new TensorRtBackendFactory();
        final ModelConfig config = factory.autoComplete(TestModels.config("""
            name: "addsub" platform: "tensorrt_plan" max_batch_size: 32
            optimization { cuda { graphs: true } }
            """), plan.getParent().getParent(), List.of(new ModelVersion(1, plan.getParent(), plan)));
        final ModelContext model = TestModels.context(config, plan);
        final SplittableRandom random = new SplittableRandom(System.nanoTime());
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (int round = 0; round < 4; round++)
            {
                check(engine, config, 8, random);
            }
            assertEquals(1, ((TensorRtInstance) engine).capturedGraphs(), "one graph for batch size 8");
            check(engine, config, 3, random);
            check(engine, config, 3, random);
            assertEquals(2, ((TensorRtInstance) engine).capturedGraphs());
            check(engine, config, 8, random);
        }
    }

    @Test
    void aCorruptPlanFailsWithTensorRtsReason() throws Exception
    {
        final Path broken = Files.createDirectories(work.resolve("broken/1")).resolve("model.plan");
        final byte[] bytes = Files.readAllBytes(plan);
        Files.write(broken, java.util.Arrays.copyOf(bytes, bytes.length / 3));
        final ModelConfig config = TestModels.config("name: \"broken\" platform: \"tensorrt_plan\"");
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> new TensorRtBackendFactory().load(TestModels.context(config, broken)));
        System.out.println("TensorRtGpuTest: corrupt plan -> " + failure.getMessage());
        assertTrue(failure.getMessage().startsWith("model 'broken' version 1: cannot load TensorRT plan " + broken
            + ": deserializeCudaEngine failed: "), failure.getMessage());
    }

    private static void check(final Engine engine, final ModelConfig config, final int batchSize,
        final SplittableRandom random) throws Exception
    {
        final float[] a = new float[batchSize * WIDTH];
        final float[] b = new float[batchSize * WIDTH];
        for (int i = 0; i < a.length; i++)
        {
            a[i] = (float) (random.nextDouble() * 100 - 50);
            b[i] = (float) (random.nextDouble() * 100 - 50);
        }
        try (FakeBatch batch = new FakeBatch(config, batchSize))
        {
            batch.input("INPUT0", DataType.FP32, new long[] {batchSize, WIDTH}, a)
                .input("INPUT1", DataType.FP32, new long[] {batchSize, WIDTH}, b);
            engine.execute(batch);
            assertArrayEquals(new long[] {batchSize, WIDTH}, batch.outputShape("OUTPUT0"));
            final float[] sum = batch.floats("OUTPUT0");
            final float[] difference = batch.floats("OUTPUT1");
            for (int i = 0; i < a.length; i++)
            {
                assertEquals(a[i] + b[i], sum[i], 1e-5f, "sum " + i + " at batch " + batchSize);
                assertEquals(a[i] - b[i], difference[i], 1e-5f, "difference " + i + " at batch " + batchSize);
            }
        }
    }

    private static Path findTrtexec()
    {
        final List<Path> candidates = new ArrayList<>();
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
        {
            if (!dir.isBlank())
            {
                candidates.add(Path.of(dir, "trtexec"));
            }
        }
        final String home = System.getenv("TENSORRT_HOME");
        if (home != null)
        {
            candidates.add(Path.of(home, "bin", "trtexec"));
        }
        for (final String root : new String[] {"/usr/src/tensorrt", "/usr/local/tensorrt", "/opt/tensorrt"})
        {
            candidates.add(Path.of(root, "bin", "trtexec"));
        }
        return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    private static void skipUnless(final boolean condition, final String reason)
    {
        if (!condition)
        {
            System.out.println("TensorRtGpuTest: skipped: " + reason);
        }
        assumeTrue(condition, reason);
    }

    private record Run(int exit, String output)
    {
    }

    private static Run run(final List<String> command, final List<String> env, final int timeoutSeconds)
        throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        for (final String entry : env)
        {
            final int equals = entry.indexOf('=');
            builder.environment().put(entry.substring(0, equals), entry.substring(equals + 1));
        }
        final Process process;
        try
        {
            process = builder.start();
        }
        catch (final IOException notFound)
        {
            abort(command.getFirst() + " cannot be started: " + notFound.getMessage());
            throw notFound;
        }
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError(command.getFirst() + " did not finish in " + timeoutSeconds + " s");
        }
        return new Run(process.exitValue(), output);
    }
}
