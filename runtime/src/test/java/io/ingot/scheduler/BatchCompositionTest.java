package io.ingot.scheduler;

import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.RecordingBackend.Recorder;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shape checks (§2.10), {@code preserve_ordering} (§2.12), {@code max_batch_size: 0} and the default scheduler
 * (§2.13).
 */
class BatchCompositionTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private ModelConfig variableWidth(final String name, final boolean ragged)
    {
        return TestModels.config("name: '" + name + "' backend: 'recording' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [-1] allow_ragged_batch: " + ragged + " }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [-1] }]"
            + " instance_group [{ kind: KIND_CPU count: 1 }]"
            + " dynamic_batching { default_queue_policy { max_queue_size: 100 } }");
    }

    /** A request of shape [1, width] whose elements all hold {@code tag}. */
    private InferenceRequest wide(final String model, final int tag, final int width)
    {
        final MemorySegment data = Arena.ofAuto().allocate(4L * width, 4);
        for (int i = 0; i < width; i++)
        {
            data.setAtIndex(ValueLayout.JAVA_INT, i, tag);
        }
        return new InferenceRequest(model).id("w" + tag).requestOutput("OUTPUT0")
            .addInput("INPUT0", DataType.INT32, new long[] {1, width}, data);
    }

    private List<List<Integer>> runWide(final InferenceCore core, final String model, final int... widths)
        throws Exception
    {
        final Recorder recorder = recording.recorder(model);
        final var gate = core.submit(wide(model, GATE, 2));
        recorder.awaitGateReached();
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (int i = 0; i < widths.length; i++)
        {
            futures.add(core.submit(wide(model, i + 1, widths[i])));
        }
        recorder.openGate();
        assertTrue(await(gate).isOk());
        for (int i = 0; i < futures.size(); i++)
        {
            try (InferenceResponse response = await(futures.get(i)))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
                final MemorySegment out = response.output("OUTPUT0").data();
                assertEquals(widths[i] * 4L, out.byteSize());
                for (int e = 0; e < widths[i]; e++)
                {
                    assertEquals(i + 1, out.getAtIndex(ValueLayout.JAVA_INT, e), "response " + i + " element " + e);
                }
            }
        }
        return recorder.batches.subList(1, recorder.batches.size());
    }

    @Test
    void differentShapesStopTheScanAndAreNeverReordered() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, variableWidth("s1", false)))
        {
            final List<List<Integer>> batches = runWide(core, "s1", 2, 2, 3, 2);
            // Rows of each batch: [1, 2] share width 2; 3 has width 3 and starts the next batch; the last width-2
            // request is not moved forward to join the first batch.
            assertEquals(3, batches.size(), batches.toString());
            assertEquals(List.of(1, 2), batches.get(0).stream().distinct().toList());
            assertEquals(List.of(3), batches.get(1).stream().distinct().toList());
            assertEquals(List.of(4), batches.get(2).stream().distinct().toList());
        }
    }

    @Test
    void raggedInputsAreNotShapeChecked() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, variableWidth("s2", true)))
        {
            final Recorder recorder = recording.recorder("s2");
            final var gate = core.submit(wide("s2", GATE, 2));
            recorder.awaitGateReached();
            final var a = core.submit(wide("s2", 1, 2));
            final var b = core.submit(wide("s2", 2, 3));
            recorder.openGate();
            assertTrue(await(gate).isOk());
            // Each request gets its one response; the recording engine is not ragged-aware, so the identity copy of
            // a ragged batch may fail, as with a Triton backend that does not support ragged batching.
            await(a).close();
            await(b).close();
            assertEquals(2, recorder.batches.size(), () -> "both ragged requests form one batch: " + recorder.batches);
        }
    }

    @Test
    void maxBatchSizeZeroWithDynamicBatchingExecutesEachRequestAlone() throws Exception
    {
        final ModelConfig config = TestModels.config("name: 'z0' backend: 'recording' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 1 }] dynamic_batching { max_queue_delay_microseconds: 100000"
            + " }");
        try (InferenceCore core = TestModels.core(recording, config))
        {
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 1; i <= 4; i++)
            {
                final MemorySegment data = Arena.ofAuto().allocate(4);
                data.set(ValueLayout.JAVA_INT, 0, i);
                futures.add(core.submit(new InferenceRequest("z0").addInput("INPUT0", DataType.INT32,
                    new long[] {1}, data)));
            }
            futures.forEach(f -> assertTrue(await(f).isOk()));
            assertEquals(List.of(1, 1, 1, 1), recording.recorder("z0").batchSizes());
        }
    }

    @Test
    void defaultSchedulerRunsOneRequestPerExecutionAndIgnoresPriorityAndTimeout() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("d0", 8, "")))
        {
            final Recorder recorder = recording.recorder("d0");
            final var gate = core.submit(tagged("d0", GATE, 1));
            recorder.awaitGateReached();
            final var slow = core.submit(tagged("d0", 1, 2).timeoutMicros(1_000));
            final var urgent = core.submit(tagged("d0", 2, 1).priority(1));
            Thread.sleep(100);
            recorder.openGate();
            assertTrue(await(gate).isOk());
            assertTrue(await(slow).isOk(), "timeouts are ignored without dynamic_batching");
            assertTrue(await(urgent).isOk());
            assertEquals(List.of(List.of(GATE), List.of(1, 1), List.of(2)), recorder.batches);
        }
    }

    @Test
    void preserveOrderingDeliversResponsesInDequeueOrderAcrossInstances() throws Exception
    {
        final ModelConfig config = TestModels.config("name: 'o1' backend: 'recording' max_batch_size: 1"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 2 }] dynamic_batching { preserve_ordering: true }");
        try (InferenceCore core = TestModels.core(recording, config))
        {
            final Recorder recorder = recording.recorder("o1");
            final List<String> delivered = new CopyOnWriteArrayList<>();
            final CompletableFuture<Void> allDone = new CompletableFuture<>();
            core.submit(tagged("o1", GATE, 1).id("first"), response ->
            {
                delivered.add(response.id());
                response.close();
            });
            recorder.awaitGateReached();
            core.submit(tagged("o1", 7, 1).id("second"), response ->
            {
                delivered.add(response.id());
                response.close();
                allDone.complete(null);
            });
            // The second request executes on the other instance and finishes first...
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (recorder.spans.isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(1, recorder.spans.size(), "second request executed while the first is held");
            Thread.sleep(100);
            // ...but its response waits for the first one's.
            assertTrue(delivered.isEmpty(), "delivered out of order: " + delivered);
            recorder.openGate();
            allDone.get(30, TimeUnit.SECONDS);
            assertEquals(List.of("first", "second"), delivered);
        }
    }

    @Test
    void withoutPreserveOrderingAFasterLaterBatchIsDeliveredFirst() throws Exception
    {
        final ModelConfig config = TestModels.config("name: 'o2' backend: 'recording' max_batch_size: 1"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 2 }] dynamic_batching { }");
        try (InferenceCore core = TestModels.core(recording, config))
        {
            final Recorder recorder = recording.recorder("o2");
            final var first = core.submit(tagged("o2", GATE, 1));
            recorder.awaitGateReached();
            final InferenceResponse second = await(core.submit(tagged("o2", 7, 1)));
            assertTrue(second.isOk());
            assertFalse(first.isDone());
            recorder.openGate();
            assertTrue(await(first).isOk());
        }
    }
}
