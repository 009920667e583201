package io.ingot.ensemble;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ModelStatistics;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ingot.ensemble.EnsembleLinkingTest.ADD_SUB;
import static io.ingot.ensemble.EnsembleLinkingTest.IDENTITY;
import static io.ingot.ensemble.EnsembleLinkingTest.entry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ensemble requests through the core: steps fire as their inputs are ready (a parallel branch included), tensors
 * pass without copies, a failing step fails the request once with its error, priority and timeout reach the steps,
 * {@code max_inflight_responses} holds steps back, statistics take Triton's ensemble shape, and explicit model
 * control loads and unloads composing models.
 */
class EnsembleSchedulingTest
{
    /**
     * A, B → add_sub → SUM, DIFF; SUM → identity → S; DIFF → identity → D (the parallel branch); S, D → add_sub →
     * TWO_A (= 2A), TWO_B (= 2B). Four steps over two built-in backends.
     */
    static final ModelConfig DIAMOND = TestModels.config("""
        name: "diamond" platform: "ensemble" max_batch_size: 8
        input [{ name: "A" data_type: TYPE_FP32 dims: [4] }, { name: "B" data_type: TYPE_FP32 dims: [4] }]
        output [{ name: "TWO_A" data_type: TYPE_FP32 dims: [4] }, { name: "TWO_B" data_type: TYPE_FP32 dims: [4] }]
        ensemble_scheduling { step [
          { model_name: "add_sub" model_version: -1 input_map { key: "INPUT0" value: "A" }
            input_map { key: "INPUT1" value: "B" } output_map { key: "OUTPUT0" value: "SUM" }
            output_map { key: "OUTPUT1" value: "DIFF" } },
          { model_name: "identity" model_version: -1 input_map { key: "INPUT0" value: "SUM" }
            output_map { key: "OUTPUT0" value: "S" } },
          { model_name: "identity" model_version: -1 input_map { key: "INPUT0" value: "DIFF" }
            output_map { key: "OUTPUT0" value: "D" } },
          { model_name: "add_sub" model_version: -1 input_map { key: "INPUT0" value: "S" }
            input_map { key: "INPUT1" value: "D" } output_map { key: "OUTPUT0" value: "TWO_A" }
            output_map { key: "OUTPUT1" value: "TWO_B" } }
        ] }
        """);

    private static MemorySegment floats(final float... values)
    {
        final MemorySegment segment = Arena.ofAuto().allocate(4L * values.length, 4);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }

    private static float[] floatsOf(final InferenceResponse response, final String output)
    {
        assertTrue(response.isOk(), () -> String.valueOf(response.error()));
        return response.output(output).data().toArray(ValueLayout.JAVA_FLOAT);
    }

    private static InferenceResponse await(final CompletableFuture<InferenceResponse> future)
    {
        return TestModels.await(future);
    }

    @Test
    void aDiamondPipelineComputesThroughEveryStepAndCountsEnsembleStatistics()
    {
        try (InferenceCore core = TestModels.core(DIAMOND, ADD_SUB, IDENTITY))
        {
            for (int round = 0; round < 3; round++)
            {
                final InferenceRequest request = new InferenceRequest("diamond").id("d" + round)
                    .addInput("A", DataType.FP32, new long[] {1, 4}, floats(1, 2, 3, round))
                    .addInput("B", DataType.FP32, new long[] {1, 4}, floats(10, 20, 30, 40));
                try (InferenceResponse response = await(core.submit(request)))
                {
                    assertEquals("diamond", response.modelName());
                    assertEquals("d" + round, response.id());
                    assertArrayEquals(new float[] {2, 4, 6, 2 * round}, floatsOf(response, "TWO_A"));
                    assertArrayEquals(new float[] {20, 40, 60, 80}, floatsOf(response, "TWO_B"));
                    assertArrayEquals(new long[] {1, 4}, response.output("TWO_A").shape());
                }
            }
            final ModelStatistics ensemble = core.modelStatistics("diamond", -1).getFirst();
            assertEquals(3, ensemble.inferenceStats().success().count());
            assertEquals(3, ensemble.executionCount(), "one execution per ensemble request, as Triton counts");
            assertEquals(3, ensemble.inferenceCount());
            assertEquals(3, ensemble.inferenceStats().computeInfer().count());
            // Composing models count their own requests: two steps each per ensemble request.
            assertEquals(6, core.modelStatistics("add_sub", -1).getFirst().inferenceStats().success().count());
            assertEquals(6, core.modelStatistics("identity", -1).getFirst().inferenceStats().success().count());
            final long stepsInfer = core.modelStatistics("add_sub", -1).getFirst().inferenceStats().computeInfer().ns()
                + core.modelStatistics("identity", -1).getFirst().inferenceStats().computeInfer().ns();
            assertTrue(ensemble.inferenceStats().computeInfer().ns() <= stepsInfer,
                "the ensemble's compute is the sum of its steps' (batches may be shared, never more)");
        }
    }

    @Test
    void requestedOutputsAndRequestChecksAreTheEnsemblesOwn()
    {
        try (InferenceCore core = TestModels.core(DIAMOND, ADD_SUB, IDENTITY))
        {
            final InferenceRequest request = new InferenceRequest("diamond")
                .addInput("A", DataType.FP32, new long[] {1, 4}, floats(1, 1, 1, 1))
                .addInput("B", DataType.FP32, new long[] {1, 4}, floats(1, 1, 1, 1)).requestOutput("TWO_B");
            try (InferenceResponse response = await(core.submit(request)))
            {
                assertEquals(1, response.outputCount());
                assertArrayEquals(new float[] {2, 2, 2, 2}, floatsOf(response, "TWO_B"));
            }
            final InferenceRequest wrong = new InferenceRequest("diamond").id("w")
                .addInput("A", DataType.INT32, new long[] {1, 4}, floats(1, 1, 1, 1))
                .addInput("B", DataType.FP32, new long[] {1, 4}, floats(1, 1, 1, 1));
            final var refused = org.junit.jupiter.api.Assertions.assertThrows(io.ingot.api.InferenceException.class,
                () -> core.submit(wrong));
            assertEquals(ErrorCode.INVALID_ARG, refused.code());
            assertTrue(refused.getMessage().contains("'diamond'"), refused.getMessage());
        }
    }

    /** IN → identity → MID (also an ensemble output); MID → recording → OUT. */
    private static final ModelConfig VIEWS = TestModels.config("""
        name: "views" platform: "ensemble" max_batch_size: 4
        input [{ name: "IN" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "MID" data_type: TYPE_INT32 dims: [1] }, { name: "OUT" data_type: TYPE_INT32 dims: [1] }]
        ensemble_scheduling { step [
          { model_name: "ident32" model_version: -1 input_map { key: "INPUT0" value: "IN" }
            output_map { key: "OUTPUT0" value: "MID" } },
          { model_name: "rec" model_version: -1 input_map { key: "INPUT0" value: "MID" }
            output_map { key: "OUTPUT0" value: "OUT" } }
        ] }
        """);

    private static final ModelConfig IDENT32 = TestModels.config("""
        name: "ident32" backend: "identity" max_batch_size: 4
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [1] }]
        """);

    @Test
    void tensorsPassBetweenStepsAndIntoTheResponseWithoutACopy()
    {
        final RecordingBackend recording = new RecordingBackend();
        try (InferenceCore core = TestModels.core(recording, VIEWS, IDENT32, TestModels.recording("rec", 4, "")))
        {
            final MemorySegment in = Arena.ofAuto().allocate(4, 4);
            in.set(ValueLayout.JAVA_INT, 0, 7);
            final InferenceRequest native7 = new InferenceRequest("views")
                .addInput("IN", DataType.INT32, new long[] {1, 1}, in);
            try (InferenceResponse response = await(core.submit(native7)))
            {
                assertTrue(response.isOk(), () -> String.valueOf(response.error()));
                assertEquals(7, response.output("OUT").data().get(ValueLayout.JAVA_INT, 0));
                final MemorySegment mid = response.output("MID").data();
                assertEquals(7, mid.get(ValueLayout.JAVA_INT, 0));
                // The recording step read the identity step's output memory itself, and the ensemble response
                // hands out that same memory as MID.
                assertEquals(mid.address(), recording.recorder("rec").inputMemory.getFirst()[0]);
            }
        }
    }

    /** IN → rec (fails on row -2) → OUT; IN → ident32 → SIDE, a branch that succeeds. */
    private static final ModelConfig FORK = TestModels.config("""
        name: "fork" platform: "ensemble" max_batch_size: 4
        input [{ name: "IN" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUT" data_type: TYPE_INT32 dims: [1] }, { name: "SIDE" data_type: TYPE_INT32 dims: [1] }]
        ensemble_scheduling { step [
          { model_name: "rec" model_version: -1 input_map { key: "INPUT0" value: "IN" }
            output_map { key: "OUTPUT0" value: "OUT" } },
          { model_name: "ident32" model_version: -1 input_map { key: "INPUT0" value: "IN" }
            output_map { key: "OUTPUT0" value: "SIDE" } }
        ] }
        """);

    private static InferenceRequest forkRequest(final String model, final int value)
    {
        final MemorySegment in = Arena.ofAuto().allocate(4, 4);
        in.set(ValueLayout.JAVA_INT, 0, value);
        return new InferenceRequest(model).id("v" + value).addInput("IN", DataType.INT32, new long[] {1, 1}, in);
    }

    @Test
    void aFailingStepFailsTheRequestOnceWithTheStepsError() throws InterruptedException
    {
        final RecordingBackend recording = new RecordingBackend();
        try (InferenceCore core = TestModels.core(recording, FORK, IDENT32, TestModels.recording("rec", 4, "")))
        {
            final List<InferenceResponse> delivered = new CopyOnWriteArrayList<>();
            core.submit(forkRequest("fork", RecordingBackend.FAIL), response -> delivered.add(response));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (delivered.isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            Thread.sleep(200);  // a second response, if any, would arrive in this time
            assertEquals(1, delivered.size());
            final InferenceResponse response = delivered.getFirst();
            assertFalse(response.isOk());
            assertTrue(response.error().getMessage().startsWith("in ensemble 'fork', "), response.error().getMessage());
            assertTrue(response.error().getMessage().contains("injected failure"), response.error().getMessage());
            response.close();
            final ModelStatistics stats = core.modelStatistics("fork", -1).getFirst();
            assertEquals(1, stats.inferenceStats().fail().count());
            assertEquals(0, stats.inferenceStats().success().count());
            assertEquals(1, core.modelStatistics("rec", -1).getFirst().inferenceStats().fail().count());
            // The ensemble still serves.
            try (InferenceResponse ok = await(core.submit(forkRequest("fork", 5))))
            {
                assertEquals(5, ok.output("OUT").data().get(ValueLayout.JAVA_INT, 0));
                assertEquals(5, ok.output("SIDE").data().get(ValueLayout.JAVA_INT, 0));
            }
        }
    }

    /** IN → rec → OUT, one step. */
    private static ModelConfig single(final String name, final String extra)
    {
        return TestModels.config("name: '" + name + "' platform: 'ensemble' max_batch_size: 1"
            + " input [{ name: 'IN' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUT' data_type: TYPE_INT32 dims: [1] }]"
            + " ensemble_scheduling { " + extra + " step [{ model_name: 'rec' model_version: -1"
            + " input_map { key: 'INPUT0' value: 'IN' } output_map { key: 'OUTPUT0' value: 'OUT' } }] }");
    }

    @Test
    void priorityReachesTheStepNormalizedForItsModel() throws InterruptedException
    {
        final RecordingBackend recording = new RecordingBackend();
        final ModelConfig rec = TestModels.recording("rec", 1,
            "dynamic_batching { priority_levels: 3 default_priority_level: 3 }");
        try (InferenceCore core = TestModels.core(recording, single("one", ""), rec))
        {
            final CompletableFuture<InferenceResponse> gate = core.submit(TestModels.tagged("rec",
                RecordingBackend.GATE, 1));
            recording.recorder("rec").awaitGateReached();
            final CompletableFuture<InferenceResponse> low = core.submit(TestModels.tagged("rec", 30, 1).priority(3));
            // 99 is beyond the model's levels: the step carries the default level 3, behind the earlier request.
            final CompletableFuture<InferenceResponse> beyond = core.submit(forkRequest("one", 99).priority(99));
            final CompletableFuture<InferenceResponse> high = core.submit(forkRequest("one", 10).priority(1));
            while (core instanceof io.ingot.core.Core c && c.queuedRequests("rec", -1) < 3)
            {
                Thread.sleep(1);
            }
            recording.recorder("rec").openGate();
            for (final CompletableFuture<InferenceResponse> future : List.of(gate, low, beyond, high))
            {
                await(future).close();
            }
            assertEquals(List.of(List.of(RecordingBackend.GATE), List.of(10), List.of(30), List.of(99)),
                recording.recorder("rec").batches);
        }
    }

    @Test
    void theTimeoutReachesTheStep() throws InterruptedException
    {
        final RecordingBackend recording = new RecordingBackend();
        final ModelConfig rec = TestModels.recording("rec", 1, "dynamic_batching { default_queue_policy {"
            + " allow_timeout_override: true default_timeout_microseconds: 60000000 } }");
        try (InferenceCore core = TestModels.core(recording, single("one", ""), rec))
        {
            final CompletableFuture<InferenceResponse> gate = core.submit(TestModels.tagged("rec",
                RecordingBackend.GATE, 1));
            recording.recorder("rec").awaitGateReached();
            final InferenceResponse timedOut = await(core.submit(forkRequest("one", 1).timeoutMicros(1000)));
            recording.recorder("rec").openGate();
            await(gate).close();
            assertFalse(timedOut.isOk());
            assertEquals("in ensemble 'one', Request timeout expired", timedOut.error().getMessage());
            timedOut.close();
        }
    }

    @Test
    void maxInflightResponsesHoldsStepsBackUntilASlotFrees() throws InterruptedException
    {
        final RecordingBackend recording = new RecordingBackend();
        try (InferenceCore core = TestModels.core(recording, single("capped", "max_inflight_responses: 1"),
            TestModels.recording("rec", 1, "")))
        {
            final CompletableFuture<InferenceResponse> first = core.submit(forkRequest("capped",
                RecordingBackend.GATE));
            recording.recorder("rec").awaitGateReached();
            final CompletableFuture<InferenceResponse> second = core.submit(forkRequest("capped", 2));
            final CompletableFuture<InferenceResponse> third = core.submit(forkRequest("capped", 3));
            Thread.sleep(100);
            // Parked in the ensemble, not queued in the composing model.
            assertEquals(0, ((io.ingot.core.Core) core).queuedRequests("rec", -1));
            assertEquals(3, ((io.ingot.core.Core) core).queuedRequests("capped", -1));
            recording.recorder("rec").openGate();
            for (final CompletableFuture<InferenceResponse> future : List.of(first, second, third))
            {
                assertTrue(await(future).isOk());
            }
            assertEquals(List.of(List.of(RecordingBackend.GATE), List.of(2), List.of(3)),
                recording.recorder("rec").batches);
        }
    }

    @Test
    void everyRequestInFlightIsAnsweredOnceWhenTheCoreCloses() throws InterruptedException
    {
        final RecordingBackend recording = new RecordingBackend();
        final InferenceCore core = TestModels.core(recording, FORK, IDENT32, TestModels.recording("rec", 4, ""));
        final AtomicInteger responses = new AtomicInteger();
        core.submit(forkRequest("fork", RecordingBackend.GATE), response ->
        {
            responses.incrementAndGet();
            response.close();
        });
        for (int i = 0; i < 5; i++)
        {
            core.submit(forkRequest("fork", i), response ->
            {
                responses.incrementAndGet();
                response.close();
            });
        }
        recording.recorder("rec").awaitGateReached();
        final Thread closer = Thread.ofPlatform().start(core::close);
        Thread.sleep(50);
        recording.recorder("rec").openGate();
        closer.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(closer.isAlive());
        Thread.sleep(100);
        assertEquals(6, responses.get());
    }

    @Test
    void explicitLoadBringsComposingModelsAndUnloadDependentsTakesThemAway()
    {
        final CoreOptions options = TestModels.options(DIAMOND, ADD_SUB, IDENTITY)
            .controlMode(ModelControlMode.EXPLICIT).build();
        try (InferenceCore core = InferenceCore.open(options))
        {
            assertTrue(core.isModelReady("diamond", -1), () -> entry(core, "diamond").reason());
            core.unloadModel("diamond", true);
            for (final String model : List.of("diamond", "add_sub", "identity"))
            {
                assertFalse(core.isModelReady(model, -1), model);
                assertEquals("unloaded", entry(core, model).reason());
            }
            core.loadModel("diamond", ModelLoadOverrides.NONE);
            for (final String model : List.of("diamond", "add_sub", "identity"))
            {
                assertTrue(core.isModelReady(model, -1), model + " loads with the ensemble");
            }
            core.unloadModel("diamond", false);
            assertFalse(core.isModelReady("diamond", -1));
            assertTrue(core.isModelReady("add_sub", -1), "without unload_dependents the composing models stay");
            core.loadModel("diamond", ModelLoadOverrides.NONE);
            core.unloadModel("identity", false);
            assertFalse(core.isModelReady("diamond", -1), "an ensemble stops with a composing model");
            assertEquals("ensemble diamond contains models that are not available or ambiguous: identity",
                entry(core, "diamond").reason());
            assertNotNull(core.repositoryIndex(true));
        }
    }

    @Test
    void explicitLoadOfEnsemblesThatContainEachOtherReportsTheCycle()
    {
        final ModelConfig a = EnsembleLinkingTest.ensemble("a", 8, "TYPE_FP32", "[4]", EnsembleLinkingTest.step("b"));
        final ModelConfig b = EnsembleLinkingTest.ensemble("b", 8, "TYPE_FP32", "[4]", EnsembleLinkingTest.step("a"));
        try (InferenceCore core = InferenceCore.open(TestModels.options(a, b).controlMode(ModelControlMode.EXPLICIT)
            .build()))
        {
            final var refused = org.junit.jupiter.api.Assertions.assertThrows(io.ingot.api.InferenceException.class,
                () -> core.loadModel("a", ModelLoadOverrides.NONE));
            assertEquals(ErrorCode.INVALID_ARG, refused.code());
            assertEquals("load failed for model 'a': circular dependency between ensembles: a -> ... -> b -> a",
                refused.getMessage());
            assertFalse(core.isModelReady("a", -1));
            assertFalse(core.isModelReady("b", -1));
        }
    }
}
