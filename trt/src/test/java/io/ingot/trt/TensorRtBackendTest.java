package io.ingot.trt;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.backend.ModelVersion;
import io.ingot.testing.TestModels;
import io.ingot.trt.gpu.HostMemoryOps;
import io.ingot.trt.testing.FakePlan;
import io.ingot.trt.testing.FakeTrtShim;
import io.ingot.trt.testing.Models;
import io.ingot.testing.FakeBatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TensorRT backend end to end over the shim's test double and host memory: loading, configuration checks
 * against the engine, auto-completion, profiles per instance, execution and the errors a user sees.
 */
class TensorRtBackendTest
{
    private static final String[] ADD_SUB_PLAN = {
        "input  INPUT0 FLOAT -1x4",
        "input  INPUT1 FLOAT -1x4",
        "output OUTPUT0 FLOAT -1x4 = add INPUT0 INPUT1",
        "output OUTPUT1 FLOAT -1x4 = sub INPUT0 INPUT1",
        "profile 0 INPUT0 1x4 4x4 64x4",
        "profile 0 INPUT1 1x4 4x4 64x4"};

    private static final String ADD_SUB_CONFIG = """
        name: "addsub"
        platform: "tensorrt_plan"
        max_batch_size: 64
        input [
          { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] },
          { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] }
        ]
        output [
          { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] },
          { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 4 ] }
        ]
        instance_group [ { kind: KIND_GPU count: 1 } ]
        """;

    /** Two profiles over the same range, OPT at 1 and at 8: selection by distance to OPT is observable. */
    private static final String[] TWO_PROFILE_PLAN = {
        "input  INPUT0 FLOAT -1x4",
        "output PROFILE INT32 -1x4 = profile INPUT0",
        "output OUTPUT0 FLOAT -1x4 = copy INPUT0",
        "profile 0 INPUT0 1x4 1x4 8x4",
        "profile 1 INPUT0 1x4 8x4 8x4"};

    private static final String TWO_PROFILE_CONFIG = """
        name: "profiled"
        platform: "tensorrt_plan"
        max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
        output [
          { name: "PROFILE" data_type: TYPE_INT32 dims: [ 4 ] },
          { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] }
        ]
        """;

    private final TensorRtBackendFactory factory = new TensorRtBackendFactory(new HostMemoryOps());

    @TempDir
    Path repository;

    @BeforeAll
    static void installTestDouble()
    {
        FakeTrtShim.install();
    }

    @Test
    void isFoundByServiceLoaderForItsPlatform()
    {
        final var found = java.util.ServiceLoader.load(io.ingot.backend.BackendFactory.class).stream()
            .map(java.util.ServiceLoader.Provider::get)
            .filter(candidate -> candidate.name().equals("tensorrt")).toList();
        assertEquals(1, found.size());
        assertEquals(Set.of("tensorrt_plan"), found.getFirst().platforms());
    }

    @Test
    void servesBatchesOfEverySizeWithCorrectResults() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG);
        final ModelContext model = TestModels.context(config, plan("addsub", ADD_SUB_PLAN));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            final long[] capacities = ((TensorRtInstance) engine).capacities();
            assertEquals(64 * 4 * Float.BYTES, capacities[0], "buffers are sized for the profile's MAX shape");
            final SplittableRandom random = new SplittableRandom(7);
            for (final int batchSize : new int[] {1, 3, 64, 17})
            {
                final float[] a = randomFloats(random, batchSize * 4);
                final float[] b = randomFloats(random, batchSize * 4);
                try (FakeBatch batch = new FakeBatch(config, batchSize))
                {
                    batch.input("INPUT0", DataType.FP32, new long[] {batchSize, 4}, a)
                        .input("INPUT1", DataType.FP32, new long[] {batchSize, 4}, b);
                    engine.execute(batch);
                    assertArrayEquals(new long[] {batchSize, 4}, batch.outputShape("OUTPUT0"));
                    final float[] sum = batch.floats("OUTPUT0");
                    final float[] difference = batch.floats("OUTPUT1");
                    for (int i = 0; i < a.length; i++)
                    {
                        assertEquals(a[i] + b[i], sum[i], "sum " + i + " at batch size " + batchSize);
                        assertEquals(a[i] - b[i], difference[i], "difference " + i + " at batch size " + batchSize);
                    }
                }
            }
        }
    }

    @Test
    void copiesOnlyTheRequestedOutputs() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG);
        final ModelContext model = TestModels.context(config, plan("addsub", ADD_SUB_PLAN));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0));
             FakeBatch batch = new FakeBatch(config, 2).requestOutputs("OUTPUT1"))
        {
            batch.input("INPUT0", DataType.FP32, new long[] {2, 4}, new float[] {1, 2, 3, 4, 5, 6, 7, 8})
                .input("INPUT1", DataType.FP32, new long[] {2, 4}, new float[] {8, 7, 6, 5, 4, 3, 2, 1});
            engine.execute(batch);
            assertNull(batch.output("OUTPUT0"));
            assertArrayEquals(new float[] {-7, -5, -3, -1, 1, 3, 5, 7}, batch.floats("OUTPUT1"));
        }
    }

    @Test
    void autoCompletesInputsOutputsAndMaxBatchSizeFromTheEngine() throws Exception
    {
        final Path file = plan("auto", ADD_SUB_PLAN);
        final ModelConfig bare = TestModels.config("name: \"auto\" platform: \"tensorrt_plan\"");
        final ModelConfig completed = factory.autoComplete(bare, file.getParent().getParent(),
            List.of(new ModelVersion(1, file.getParent(), file)));
        assertEquals(4, completed.getMaxBatchSize(), "min(Triton's default 4, the engine's max batch 64)");
        assertEquals(List.of("INPUT0", "INPUT1"), completed.getInputList().stream().map(i -> i.getName()).toList());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP32, completed.getInput(0).getDataType());
        assertEquals(List.of(4L), completed.getInput(0).getDimsList());
        assertEquals(List.of("OUTPUT0", "OUTPUT1"), completed.getOutputList().stream().map(o -> o.getName()).toList());
        assertEquals(List.of(4L), completed.getOutput(1).getDimsList());
        assertTrue(completed.hasDynamicBatching(), "dynamic_batching {} is added when max_batch_size > 1");

        final ModelConfig fullShapes = TestModels.config("""
            name: "auto" platform: "tensorrt_plan"
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]
            """);
        final ModelConfig kept = factory.autoComplete(fullShapes, file.getParent().getParent(),
            List.of(new ModelVersion(1, file.getParent(), file)));
        assertEquals(0, kept.getMaxBatchSize(), "a config that lists tensors keeps max_batch_size 0");
        assertEquals(List.of(-1L, 4L), kept.getInput(1).getDimsList(), "missing tensors get full shapes");
        assertTrue(!kept.hasDynamicBatching());
    }

    @Test
    void autoCompleteFollowsTritonsGateAndWordsAMissingPlanAsTritonDoes() throws Exception
    {
        // tensorrt_backend src/model_state.cc: ModelState::Create completes only with a KIND_GPU group, and
        // AutoCompleteConfigHelper fails with "unable to load plan file to auto complete config: <path>".
        final Path missing = repository.resolve("absent/1/model.plan");
        final ModelConfig onGpu = TestModels.config("name: \"absent\" platform: \"tensorrt_plan\""
            + " instance_group [ { kind: KIND_GPU gpus: [ 0 ] } ]");
        final IllegalStateException failure = assertThrows(IllegalStateException.class, () -> factory.autoComplete(
            onGpu, missing.getParent().getParent(), List.of(new ModelVersion(1, missing.getParent(), missing))));
        assertEquals("unable to load plan file to auto complete config: " + missing + " (model 'absent' version 1:"
            + " it does not exist or is not a file)", failure.getMessage());

        final ModelConfig onCpu = TestModels.config("name: \"absent\" platform: \"tensorrt_plan\""
            + " instance_group [ { kind: KIND_CPU } ]");
        assertSame(onCpu, factory.autoComplete(onCpu, missing.getParent().getParent(),
            List.of(new ModelVersion(1, missing.getParent(), missing))), "no GPU group: nothing to complete");
    }

    @Test
    void aCorruptPlanFailsTheLoadNamingTheModelAndTheCause() throws Exception
    {
        final Path file = repository.resolve("broken/1/model.plan");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.write(file, new byte[] {0x50, 0x4b, 3, 4, 9, 9, 9, 9});
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG.replace("addsub", "broken"));
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> factory.load(TestModels.context(config, file)));
        assertTrue(failure.getMessage().startsWith("model 'broken' version 1: cannot load TensorRT plan " + file),
            failure.getMessage());
        assertTrue(failure.getMessage().contains("magic tag does not match"), failure.getMessage());

        final IllegalStateException missing = assertThrows(IllegalStateException.class,
            () -> factory.load(TestModels.context(config, repository.resolve("broken/2/model.plan"))));
        assertTrue(missing.getMessage().contains("model 'broken' version 1: TensorRT plan ")
            && missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    @Test
    void aConfigThatDisagreesWithTheEngineFailsTheLoad() throws Exception
    {
        final Path file = plan("addsub", ADD_SUB_PLAN);
        final IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(
                TestModels.config(ADD_SUB_CONFIG.replaceFirst("TYPE_FP32", "TYPE_INT32")), file)));
        assertEquals("model 'addsub' version 1: input 'INPUT0' is TYPE_INT32 in config.pbtxt but the engine's tensor "
            + "is kFLOAT (TYPE_FP32)", wrongType.getMessage());

        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(
                TestModels.config(ADD_SUB_CONFIG.replace("\"OUTPUT1\"", "\"SCORES\"")), file)));
        assertTrue(unknown.getMessage().startsWith("model 'addsub' version 1: output 'SCORES' of config.pbtxt is "
            + "not an output of the TensorRT engine; engine outputs: output OUTPUT0 kFLOAT [-1, 4]"),
            unknown.getMessage());

        final IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(TestModels.config(ADD_SUB_CONFIG.replaceFirst("dims: \\[ 4 ]",
                "dims: [ 5 ]")), file)));
        assertTrue(shape.getMessage().contains("input 'INPUT0' dimension 0 is 5 in config.pbtxt [batch] + [5] (dims) "
            + "but the engine fixes it to 4"), shape.getMessage());

        final IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(TestModels.config(ADD_SUB_CONFIG.replace("max_batch_size: 64",
                "max_batch_size: 65")), file)));
        assertTrue(tooLarge.getMessage().contains("max_batch_size is 65 but no optimization profile of the engine "
            + "allows a batch above 64"), tooLarge.getMessage());

        final IllegalArgumentException missingInput = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(TestModels.config(ADD_SUB_CONFIG.replace(
                ",\n  { name: \"INPUT1\" data_type: TYPE_FP32 dims: [ 4 ] }", "")), file)));
        assertTrue(missingInput.getMessage().contains("the TensorRT engine's input 'INPUT1' (kFLOAT [-1, 4]) is "
            + "missing from config.pbtxt"), missingInput.getMessage());
    }

    @Test
    void aShapeBeyondTheProfileIsARequestErrorAndTheInstanceKeepsServing() throws Exception
    {
        final Path file = plan("seq",
            "input  TOKENS INT32 -1x-1",
            "output COPY INT32 -1x-1 = copy TOKENS",
            "profile 0 TOKENS 1x1 4x8 8x16");
        final ModelConfig config = TestModels.config("""
            name: "seq" platform: "tensorrt_plan" max_batch_size: 8
            input [ { name: "TOKENS" data_type: TYPE_INT32 dims: [ -1 ] } ]
            output [ { name: "COPY" data_type: TYPE_INT32 dims: [ -1 ] } ]
            """);
        final ModelContext model = TestModels.context(config, file);
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            try (FakeBatch tooLong = new FakeBatch(config, 2))
            {
                tooLong.input("TOKENS", DataType.INT32, new long[] {2, 20}, new int[40]);
                final InferenceException failure = assertThrows(InferenceException.class,
                    () -> engine.execute(tooLong));
                assertEquals(ErrorCode.INVALID_ARG, failure.code());
                assertEquals("model 'seq' version 1 instance 'seq_0': no optimization profile of this instance accepts "
                    + "the batch (batch size 2): input 'TOKENS' shape [2, 20] is outside optimization profile 0 "
                    + "(min [1, 1] opt [4, 8] max [8, 16])", failure.getMessage());
            }
            try (FakeBatch fits = new FakeBatch(config, 2))
            {
                fits.input("TOKENS", DataType.INT32, new long[] {2, 3}, new int[] {1, 2, 3, 4, 5, 6});
                engine.execute(fits);
                assertArrayEquals(new long[] {2, 3}, fits.outputShape("COPY"));
                assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, fits.ints("COPY"));
            }
        }
    }

    @Test
    void picksTheFittingProfileClosestToItsOptShape() throws Exception
    {
        final ModelConfig config = TestModels.config(TWO_PROFILE_CONFIG);
        final ModelContext model = TestModels.context(config, plan("profiled", TWO_PROFILE_PLAN));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0, List.of("0", "1"))))
        {
            assertEquals(0, profileUsed(engine, config, 2), "batch 2 is closest to profile 0's OPT 1");
            assertEquals(1, profileUsed(engine, config, 7), "batch 7 is closest to profile 1's OPT 8");
            assertEquals(0, profileUsed(engine, config, 1));
        }
    }

    @Test
    void concurrentInstancesOfADynamicEngineGetTheirOwnProfiles() throws Exception
    {
        final ModelConfig config = TestModels.config(TWO_PROFILE_CONFIG);
        final ModelContext model = TestModels.context(config, plan("profiled", TWO_PROFILE_PLAN));
        try (Backend backend = factory.load(model))
        {
            final Engine first = backend.createEngine(Models.gpuInstance(model, 0));
            try (Engine second = backend.createEngine(Models.gpuInstance(model, 1)))
            {
                assertEquals(0, profileUsed(first, config, 3));
                assertEquals(1, profileUsed(second, config, 3));
                final IllegalArgumentException third = assertThrows(IllegalArgumentException.class,
                    () -> backend.createEngine(Models.gpuInstance(model, 2)));
                assertTrue(third.getMessage().startsWith("model 'profiled' version 1: instance 'profiled_2' needs an "
                    + "optimization profile of its own, but all 2 profile(s) of the engine are used by other instances "
                    + "{0=profiled_0, 1=profiled_1}"), third.getMessage());

                final IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                    () -> backend.createEngine(Models.gpuInstance(model, 3, List.of("1"))));
                assertTrue(taken.getMessage().contains("instance 'profiled_3' lists optimization profile 1, which "
                    + "instance 'profiled_1' already uses"), taken.getMessage());

                first.close();
                try (Engine reused = backend.createEngine(Models.gpuInstance(model, 4)))
                {
                    assertEquals(0, profileUsed(reused, config, 3), "a closed instance's profile is free again");
                }
            }
        }
    }

    @Test
    void rejectsProfileEntriesThatAreNotProfilesOfTheEngine() throws Exception
    {
        final ModelConfig config = TestModels.config(TWO_PROFILE_CONFIG);
        final ModelContext model = TestModels.context(config, plan("profiled", TWO_PROFILE_PLAN));
        try (Backend backend = factory.load(model))
        {
            final IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> backend.createEngine(Models.gpuInstance(model, 0, List.of("fast"))));
            assertEquals("model 'profiled' version 1: instance_group profile 'fast' of instance 'profiled_0' is not "
                + "a profile index; expected a number from 0 to 1", notANumber.getMessage());
            final IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                () -> backend.createEngine(Models.gpuInstance(model, 0, List.of("2"))));
            assertTrue(outOfRange.getMessage().contains("profile '2' of instance 'profiled_0' is out of range: the "
                + "engine has 2 optimization profile(s), 0 to 1"), outOfRange.getMessage());
        }
    }

    @Test
    void aStaticEngineLetsEveryInstanceUseProfileZero() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "static" platform: "tensorrt_plan"
            input [ { name: "X" data_type: TYPE_INT64 dims: [ 2, 3 ] } ]
            output [ { name: "Y" data_type: TYPE_INT64 dims: [ 2, 3 ] } ]
            """);
        final ModelContext model = TestModels.context(config, plan("static", "input X INT64 2x3",
            "output Y INT64 2x3 = copy X"));
        try (Backend backend = factory.load(model);
             Engine a = backend.createEngine(Models.gpuInstance(model, 0));
             Engine b = backend.createEngine(Models.gpuInstance(model, 1));
             Engine c = backend.createEngine(Models.gpuInstance(model, 2));
             FakeBatch batch = new FakeBatch(config, 1))
        {
            batch.input("X", DataType.INT64, new long[] {2, 3}, new long[] {1, 2, 3, 4, 5, 6});
            c.execute(batch);
            assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6},
                batch.output("Y").toArray(java.lang.foreign.ValueLayout.JAVA_LONG));
            assertTrue(a != b);
        }
    }

    @Test
    void reshapedTensorsReachTheEngineInItsShape() throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "reshaped" platform: "tensorrt_plan" max_batch_size: 4
            input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] reshape: { shape: [ 2, 2 ] } } ]
            output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] reshape: { shape: [ 2, 2 ] } } ]
            """);
        final ModelContext model = TestModels.context(config, plan("reshaped", "input IN FLOAT -1x2x2",
            "output OUT FLOAT -1x2x2 = add IN IN", "profile 0 IN 1x2x2 2x2x2 4x2x2"));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0));
             FakeBatch batch = new FakeBatch(config, 2))
        {
            batch.input("IN", DataType.FP32, new long[] {2, 4}, new float[] {1, 2, 3, 4, 5, 6, 7, 8});
            engine.execute(batch);
            assertArrayEquals(new long[] {2, 4}, batch.outputShape("OUT"), "the response has the config's dims");
            assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12, 14, 16}, batch.floats("OUT"));
        }
    }

    @Test
    void engineOutputsMissingFromTheConfigAreComputedButNotReturned() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG.replace(
            ",\n  { name: \"OUTPUT1\" data_type: TYPE_FP32 dims: [ 4 ] }", ""));
        assertEquals(1, config.getOutputCount());
        final ModelContext model = TestModels.context(config, plan("addsub", ADD_SUB_PLAN));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0));
             FakeBatch batch = new FakeBatch(config, 1))
        {
            batch.input("INPUT0", DataType.FP32, new long[] {1, 4}, new float[] {1, 1, 1, 1})
                .input("INPUT1", DataType.FP32, new long[] {1, 4}, new float[] {2, 2, 2, 2});
            engine.execute(batch);
            assertArrayEquals(new float[] {3, 3, 3, 3}, batch.floats("OUTPUT0"));
            assertNull(batch.output("OUTPUT1"));
        }
    }

    @Test
    void anEngineFailureFailsTheBatchNamingTheModel() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG.replace("addsub", "failing"));
        final String[] failing = java.util.Arrays.copyOf(ADD_SUB_PLAN, ADD_SUB_PLAN.length + 1);
        failing[ADD_SUB_PLAN.length] = "fail_enqueue illegal memory access (simulated)";
        final ModelContext model = TestModels.context(config, plan("failing", failing));
        try (Backend backend = factory.load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0));
             FakeBatch batch = new FakeBatch(config, 1))
        {
            batch.input("INPUT0", DataType.FP32, new long[] {1, 4}, new float[4])
                .input("INPUT1", DataType.FP32, new long[] {1, 4}, new float[4]);
            final InferenceException failure = assertThrows(InferenceException.class, () -> engine.execute(batch));
            assertEquals(ErrorCode.INTERNAL, failure.code());
            assertEquals("model 'failing' version 1 instance 'failing_0': execution failed: enqueueV3 failed: "
                + "enqueueV3: illegal memory access (simulated)", failure.getMessage());
        }
    }

    @Test
    void cpuInstancesAreRejected() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG);
        final ModelContext model = TestModels.context(config, plan("addsub", ADD_SUB_PLAN));
        try (Backend backend = factory.load(model))
        {
            final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> backend.createEngine(new io.ingot.backend.InstanceContext(model, "addsub_0", 0,
                    ModelInstanceGroup.Kind.KIND_CPU, -1, List.of())));
            assertEquals("model 'addsub' version 1 instance 'addsub_0': TensorRT instances run on a GPU, but the "
                + "instance group is KIND_CPU; use kind: KIND_GPU", failure.getMessage());
        }
    }

    @Test
    void instancesRunConcurrentlyOnTheirOwnThreads() throws Exception
    {
        final ModelConfig config = TestModels.config(ADD_SUB_CONFIG);
        final List<String> twoProfiles = new ArrayList<>(List.of(ADD_SUB_PLAN));
        twoProfiles.add("profile 1 INPUT0 1x4 32x4 64x4");
        twoProfiles.add("profile 1 INPUT1 1x4 32x4 64x4");
        final ModelContext model = TestModels.context(config, plan("addsub", twoProfiles.toArray(String[]::new)));
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        try (Backend backend = factory.load(model))
        {
            final List<Engine> engines = List.of(backend.createEngine(Models.gpuInstance(model, 0)),
                backend.createEngine(Models.gpuInstance(model, 1)));
            final CountDownLatch start = new CountDownLatch(1);
            final List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < engines.size(); i++)
            {
                final Engine engine = engines.get(i);
                final long seed = i;
                results.add(threads.submit(() ->
                {
                    start.await();
                    final SplittableRandom random = new SplittableRandom(seed);
                    int checked = 0;
                    for (int round = 0; round < 200; round++)
                    {
                        final int batchSize = 1 + random.nextInt(64);
                        final float[] a = randomFloats(random, batchSize * 4);
                        final float[] b = randomFloats(random, batchSize * 4);
                        try (FakeBatch batch = new FakeBatch(config, batchSize))
                        {
                            batch.input("INPUT0", DataType.FP32, new long[] {batchSize, 4}, a)
                                .input("INPUT1", DataType.FP32, new long[] {batchSize, 4}, b);
                            engine.execute(batch);
                            final float[] sum = batch.floats("OUTPUT0");
                            for (int e = 0; e < a.length; e++)
                            {
                                if (sum[e] != a[e] + b[e])
                                {
                                    throw new AssertionError("wrong sum at " + e + " in round " + round);
                                }
                                checked++;
                            }
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            for (final Future<Integer> result : results)
            {
                assertTrue(result.get(120, TimeUnit.SECONDS) > 0);
            }
            for (final Engine engine : engines)
            {
                engine.close();
            }
        }
        finally
        {
            threads.shutdownNow();
        }
    }

    private static int profileUsed(final Engine engine, final ModelConfig config, final int batchSize)
        throws Exception
    {
        try (FakeBatch batch = new FakeBatch(config, batchSize))
        {
            batch.input("INPUT0", DataType.FP32, new long[] {batchSize, 4}, new float[batchSize * 4]);
            engine.execute(batch);
            final int[] profile = batch.ints("PROFILE");
            assertEquals(batchSize * 4, profile.length);
            return profile[0];
        }
    }

    private Path plan(final String model, final String... lines) throws java.io.IOException
    {
        return FakePlan.write(repository.resolve(model).resolve("1").resolve(TensorRtBackendFactory.MODEL_FILE),
            lines);
    }

    private static float[] randomFloats(final SplittableRandom random, final int count)
    {
        final float[] values = new float[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = (float) (random.nextDouble() * 200 - 100);
        }
        return values;
    }
}
