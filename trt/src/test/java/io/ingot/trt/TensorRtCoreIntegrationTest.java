package io.ingot.trt;

import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelStatistics;
import io.ingot.config.proto.ModelConfig;
import io.ingot.trt.testing.FakePlan;
import io.ingot.trt.testing.FakeTrtShim;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TensorRT backend served by Ingot's runtime core from a model repository, over the shim's test double and
 * host memory ({@code backend: "tensorrt_test_double"}, test scope): auto-completion through the repository scan,
 * dynamic batching, a corrupt plan that fails only its own model, and a request beyond the profile's range that
 * fails only itself.
 */
class TensorRtCoreIntegrationTest
{
    @TempDir
    Path repository;

    @BeforeAll
    static void installTestDouble()
    {
        FakeTrtShim.install();
    }

    @Test
    void servesAnAutoCompletedModelWithDynamicBatchingBesideABrokenOne() throws Exception
    {
        model("addsub", "backend: \"tensorrt_test_double\" default_model_filename: \"model.plan\"",
            FakePlan.text("input INPUT0 FLOAT -1x4", "input INPUT1 FLOAT -1x4",
                "output OUTPUT0 FLOAT -1x4 = add INPUT0 INPUT1", "output OUTPUT1 FLOAT -1x4 = sub INPUT0 INPUT1",
                "profile 0 INPUT0 1x4 2x4 16x4", "profile 0 INPUT1 1x4 2x4 16x4"));
        model("broken", """
            backend: "tensorrt_test_double" default_model_filename: "model.plan" max_batch_size: 4
            input [ { name: "X" data_type: TYPE_FP32 dims: [ 4 ] } ]
            output [ { name: "Y" data_type: TYPE_FP32 dims: [ 4 ] } ]
            """, "this is not an engine");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build()))
        {
            final ModelConfig completed = core.modelConfig("addsub", -1);
            assertEquals(4, completed.getMaxBatchSize(), "auto-completed: min(4, the profile's max batch 16)");
            assertEquals(2, completed.getInputCount());
            assertTrue(completed.hasDynamicBatching());

            final ModelIndexEntry broken = core.repositoryIndex(false).stream()
                .filter(entry -> entry.name().equals("broken")).findFirst().orElseThrow();
            assertEquals("UNAVAILABLE", broken.state());
            assertTrue(broken.reason().contains("model 'broken' version 1: cannot load TensorRT plan")
                && broken.reason().contains("magic tag does not match"), broken.reason());

            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int r = 0; r < 32; r++)
            {
                futures.add(core.submit(request(r)));
            }
            for (int r = 0; r < futures.size(); r++)
            {
                try (InferenceResponse response = futures.get(r).get(60, TimeUnit.SECONDS))
                {
                    assertTrue(response.isOk(), String.valueOf(response.error()));
                    final MemorySegment sum = response.output("OUTPUT0").data();
                    final MemorySegment difference = response.output("OUTPUT1").data();
                    for (int i = 0; i < 4; i++)
                    {
                        assertEquals(r + i + 10f, sum.getAtIndex(ValueLayout.JAVA_FLOAT, i), "request " + r);
                        assertEquals(r + i - 10f, difference.getAtIndex(ValueLayout.JAVA_FLOAT, i), "request " + r);
                    }
                }
            }
            final ModelStatistics statistics = core.modelStatistics("addsub", -1).getFirst();
            assertEquals(32, statistics.inferenceCount());
            assertTrue(statistics.executionCount() <= 32);
            assertFalse(core.isModelReady("broken", 1));
        }
    }

    @Test
    void anInvalidConfigIsReportedBeforeTheMissingPlanIsLookedFor() throws Exception
    {
        // Triton validates the configuration (core model_repository_manager.cc) before the backend auto-completes
        // it from the plan (tensorrt_backend model_state.cc), so the config error shows, not the missing plan.
        final Path directory = Files.createDirectories(repository.resolve("noplan").resolve("1"));
        Files.writeString(directory.getParent().resolve("config.pbtxt"), """
            backend: "tensorrt_test_double" default_model_filename: "model.plan" max_batch_size: 2
            dynamic_batching { preferred_batch_size: [ 4 ] }
            """);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build()))
        {
            final ModelIndexEntry entry = core.repositoryIndex(false).getFirst();
            assertEquals("dynamic batching preferred size must be <= max batch size for noplan", entry.reason());
        }
    }

    @Test
    void aRequestBeyondTheProfileFailsAloneAndTheModelKeepsServing() throws Exception
    {
        model("seq", """
            backend: "tensorrt_test_double" default_model_filename: "model.plan" max_batch_size: 8
            input [ { name: "TOKENS" data_type: TYPE_INT32 dims: [ -1 ] } ]
            output [ { name: "COPY" data_type: TYPE_INT32 dims: [ -1 ] } ]
            """, FakePlan.text("input TOKENS INT32 -1x-1", "output COPY INT32 -1x-1 = copy TOKENS",
            "profile 0 TOKENS 1x1 4x8 8x16"));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build()))
        {
            try (InferenceResponse tooLong = core.submit(tokens(20)).get(60, TimeUnit.SECONDS))
            {
                assertFalse(tooLong.isOk());
                final String message = tooLong.error().getMessage();
                assertTrue(message.contains("model 'seq' version 1 instance")
                    && message.contains("input 'TOKENS' shape [1, 20] is outside optimization profile 0 (min [1, 1] "
                    + "opt [4, 8] max [8, 16])"), message);
            }
            try (InferenceResponse fits = core.submit(tokens(16)).get(60, TimeUnit.SECONDS))
            {
                assertTrue(fits.isOk(), String.valueOf(fits.error()));
                assertEquals(15, fits.output("COPY").data().getAtIndex(ValueLayout.JAVA_INT, 15));
            }
        }
    }

    private void model(final String name, final String config, final String plan) throws Exception
    {
        final Path directory = Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
        Files.writeString(directory.resolve("model.plan"), plan);
    }

    private static InferenceRequest request(final int r)
    {
        final MemorySegment a = Arena.ofAuto().allocate(16, 4);
        final MemorySegment b = Arena.ofAuto().allocate(16, 4);
        for (int i = 0; i < 4; i++)
        {
            a.setAtIndex(ValueLayout.JAVA_FLOAT, i, r + i);
            b.setAtIndex(ValueLayout.JAVA_FLOAT, i, 10f);
        }
        return new InferenceRequest("addsub").addInput("INPUT0", DataType.FP32, new long[] {1, 4}, a)
            .addInput("INPUT1", DataType.FP32, new long[] {1, 4}, b);
    }

    private static InferenceRequest tokens(final int length)
    {
        final MemorySegment data = Arena.ofAuto().allocate(length * 4L, 4);
        for (int i = 0; i < length; i++)
        {
            data.setAtIndex(ValueLayout.JAVA_INT, i, i);
        }
        return new InferenceRequest("seq").addInput("TOKENS", DataType.INT32, new long[] {1, length}, data);
    }
}
