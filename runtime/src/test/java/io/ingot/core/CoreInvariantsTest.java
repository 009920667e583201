package io.ingot.core;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static io.ingot.testing.RecordingBackend.FAIL;
import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The invariants of DESIGN.md: exactly one response per accepted request, whatever happens. */
class CoreInvariantsTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private ModelConfig addSub(final String name, final int instances)
    {
        return TestModels.config("name: '" + name + "' backend: 'add_sub' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] }, { name: 'INPUT1' data_type: TYPE_FP32 dims:"
            + " [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] }, { name: 'OUTPUT1' data_type: TYPE_FP32"
            + " dims: [16] }]"
            + " instance_group [{ kind: KIND_CPU count: " + instances + " }]"
            + " dynamic_batching { preferred_batch_size: [4, 8] max_queue_delay_microseconds: 2000 }");
    }

    @Test
    void manyProducersGetExactlyOneCorrectResponseEach() throws Exception
    {
        final int threads = 8;
        final int perThread = 400;
        try (InferenceCore core = TestModels.core(recording, addSub("many", 2)))
        {
            final AtomicIntegerArray responses = new AtomicIntegerArray(threads * perThread);
            final AtomicReference<String> firstError = new AtomicReference<>();
            final CountDownLatch done = new CountDownLatch(threads * perThread);
            final List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                producers.add(Thread.ofPlatform().start(() ->
                {
                    for (int i = 0; i < perThread; i++)
                    {
                        final int id = thread * perThread + i;
                        final MemorySegment a = Arena.ofAuto().allocate(64, 4);
                        final MemorySegment b = Arena.ofAuto().allocate(64, 4);
                        for (int e = 0; e < 16; e++)
                        {
                            a.setAtIndex(ValueLayout.JAVA_FLOAT, e, id + e);
                            b.setAtIndex(ValueLayout.JAVA_FLOAT, e, e);
                        }
                        final InferenceRequest request = new InferenceRequest("many").id(Integer.toString(id))
                            .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
                            .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b);
                        core.submit(request, response ->
                        {
                            try (response)
                            {
                                responses.incrementAndGet(id);
                                if (!response.isOk())
                                {
                                    firstError.compareAndSet(null, response.error().getMessage());
                                    return;
                                }
                                final MemorySegment sum = response.output("OUTPUT0").data();
                                final MemorySegment diff = response.output("OUTPUT1").data();
                                for (int e = 0; e < 16; e++)
                                {
                                    if (sum.getAtIndex(ValueLayout.JAVA_FLOAT, e) != id + 2f * e
                                        || diff.getAtIndex(ValueLayout.JAVA_FLOAT, e) != id)
                                    {
                                        firstError.compareAndSet(null, "wrong result for request " + id);
                                    }
                                }
                            }
                            finally
                            {
                                done.countDown();
                            }
                        });
                    }
                }));
            }
            for (final Thread producer : producers)
            {
                producer.join();
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "responses missing: " + done.getCount());
            assertNull(firstError.get());
            for (int i = 0; i < responses.length(); i++)
            {
                assertEquals(1, responses.get(i), "responses to request " + i);
            }
            final ModelStatistics stats = core.modelStatistics("many", -1).get(0);
            assertEquals(threads * perThread, stats.inferenceStats().success().count());
            assertEquals(threads * perThread, stats.inferenceCount());
            assertEquals(stats.inferenceStats().success().count(), stats.inferenceStats().queue().count());
            assertTrue(stats.executionCount() <= stats.inferenceCount());
            assertEquals(0, stats.pendingRequests());
        }
    }

    @Test
    void requestsWaitingBehindARunningBatchCountAsPending() throws Exception
    {
        final RecordingBackend recording = new RecordingBackend();
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("busy", 4, "dynamic_batching { }")))
        {
            final CompletableFuture<InferenceResponse> running = core.submit(tagged("busy", GATE, 1));
            recording.recorder("busy").awaitGateReached();
            final List<CompletableFuture<InferenceResponse>> waiting = new ArrayList<>();
            for (int tag = 1; tag <= 6; tag++)
            {
                waiting.add(core.submit(tagged("busy", tag, 1)));
            }
            assertEquals(6, core.modelStatistics("busy", -1).get(0).pendingRequests(),
                "accepted, not executing: Triton's nv_inference_pending_request_count");
            recording.recorder("busy").openGate();
            await(running).close();
            for (final CompletableFuture<InferenceResponse> response : waiting)
            {
                await(response).close();
            }
            assertEquals(0, core.modelStatistics("busy", -1).get(0).pendingRequests());
        }
    }

    @Test
    void anEngineFailureFailsOnlyItsBatchAndTheModelKeepsServing() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("boom", 8, "dynamic_batching {}")))
        {
            final InferenceResponse failed = await(core.submit(tagged("boom", FAIL, 1)));
            assertEquals(ErrorCode.INTERNAL, failed.error().code());
            assertTrue(failed.error().getMessage().contains("model 'boom'"), failed.error().getMessage());
            assertTrue(failed.error().getMessage().contains("injected failure"), failed.error().getMessage());
            try (InferenceResponse next = await(core.submit(tagged("boom", 5, 1))))
            {
                assertTrue(next.isOk());
                assertEquals(5, next.output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0));
            }
            final ModelStatistics stats = core.modelStatistics("boom", -1).get(0);
            assertEquals(1, stats.inferenceStats().fail().count());
            assertEquals(1L, stats.failures().get(io.ingot.api.FailureReason.BACKEND));
        }
    }

    @Test
    void aCancelledQueuedRequestIsAnsweredCancelled() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("cancel", 8,
            "dynamic_batching { default_queue_policy { max_queue_size: 10 } }")))
        {
            final var recorder = recording.recorder("cancel");
            final var gate = core.submit(tagged("cancel", GATE, 1));
            recorder.awaitGateReached();
            final InferenceRequest request = tagged("cancel", 1, 1);
            final var future = core.submit(request);
            request.cancel();
            final InferenceResponse response = await(future);
            assertEquals(ErrorCode.CANCELLED, response.error().code());
            recorder.openGate();
            assertTrue(await(gate).isOk());
            assertEquals(1, recorder.batches.size(), "the cancelled request never executed");
        }
    }

    @Test
    void shutdownAnswersEveryQueuedRequestUnavailableAndFinishesTheRunningBatch() throws Exception
    {
        final InferenceCore core = TestModels.core(recording, TestModels.recording("stop", 8,
            "dynamic_batching { default_queue_policy { max_queue_size: 100 } }"));
        final var recorder = recording.recorder("stop");
        final var gate = core.submit(tagged("stop", GATE, 1));
        recorder.awaitGateReached();
        final List<CompletableFuture<InferenceResponse>> queued = new ArrayList<>();
        for (int i = 1; i <= 5; i++)
        {
            queued.add(core.submit(tagged("stop", i, 1)));
        }
        final Thread closer = Thread.ofPlatform().start(core::close);
        for (final var future : queued)
        {
            final InferenceResponse response = await(future);
            assertEquals(ErrorCode.UNAVAILABLE, response.error().code());
            assertTrue(response.error().getMessage().contains("Server is stopping"));
        }
        recorder.openGate();
        assertTrue(await(gate).isOk(), "the executing batch completes normally");
        closer.join(30_000);
        final InferenceException after = assertThrows(InferenceException.class,
            () -> core.submit(tagged("stop", 9, 1)));
        assertEquals(ErrorCode.UNAVAILABLE, after.code());
    }

    @Test
    void requestErrorsNameTheModelTensorAndExpectation()
    {
        try (InferenceCore core = TestModels.core(recording, addSub("errs", 1)))
        {
            final MemorySegment row = Arena.ofAuto().allocate(64, 4);
            final InferenceException unknownModel = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("nope")));
            assertEquals(ErrorCode.INVALID_ARG, unknownModel.code());
            assertEquals("Request for unknown model: 'nope' is not found", unknownModel.getMessage());

            final InferenceException unknownVersion = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").modelVersion(7)));
            assertEquals(ErrorCode.NOT_FOUND, unknownVersion.code());
            assertTrue(unknownVersion.getMessage().contains("version 7"));

            // Triton counts the inputs first (core src/infer_request.cc ValidateRequestInputs), then names them.
            final InferenceException tooFew = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").id("x")
                    .addInput("INPUTX", DataType.FP32, new long[] {1, 16}, row)));
            assertEquals("[request id: x] expected 2 inputs but got 1 inputs for model 'errs'. Got input(s) "
                + "['INPUTX'], but missing required input(s) ['INPUT0','INPUT1']. Please provide all required "
                + "input(s).", tooFew.getMessage());
            final InferenceException unknownInput = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").id("x")
                    .addInput("INPUTX", DataType.FP32, new long[] {1, 16}, row)
                    .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)));
            assertEquals("[request id: x] unexpected inference input 'INPUTX' for model 'errs'",
                unknownInput.getMessage());

            final InferenceException wrongType = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").addInput("INPUT0", DataType.INT32,
                    new long[] {1, 16}, row).addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)));
            assertTrue(wrongType.getMessage()
                .contains("'INPUT0' data-type is 'INT32', but model 'errs' expects 'FP32'"),
                wrongType.getMessage());

            final InferenceException wrongShape = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").addInput("INPUT0", DataType.FP32,
                    new long[] {1, 15}, row).addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)));
            assertTrue(wrongShape.getMessage().contains("unexpected shape for input 'INPUT0' for model 'errs'. "
                + "Expected [-1,16], got [1,15]. NOTE: Setting a non-zero max_batch_size in the model config "
                + "requires a batch dimension"), wrongShape.getMessage());

            final InferenceException missing = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").addInput("INPUT0", DataType.FP32,
                    new long[] {1, 16}, row)));
            assertTrue(missing.getMessage().contains("missing required input(s) ['INPUT1']"),
                missing.getMessage());

            final InferenceException shortData = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").addInput("INPUT0", DataType.FP32,
                    new long[] {1, 16}, row.asSlice(0, 60))
                    .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)));
            assertTrue(shortData.getMessage().contains("input byte size mismatch for input 'INPUT0' for model 'errs'."
                + " Expected 64, got 60"), shortData.getMessage());

            final InferenceException unknownOutput = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("errs").addInput("INPUT0", DataType.FP32,
                    new long[] {1, 16}, row).addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)
                    .requestOutput("OUTPUT9")));
            assertTrue(unknownOutput.getMessage().contains("unexpected inference output 'OUTPUT9' for model 'errs'"),
                unknownOutput.getMessage());
            assertEquals(0, core.modelStatistics("errs", -1).get(0).pendingRequests());
        }
    }

    @Test
    void inputMemoryTheInstanceThreadsCannotReadIsRefusedAtSubmit()
    {
        try (InferenceCore core = TestModels.core(recording, addSub("memory", 1)))
        {
            final MemorySegment row = Arena.ofAuto().allocate(64, 4);
            try (Arena confined = Arena.ofConfined())
            {
                final MemorySegment mine = confined.allocate(64, 4);
                final InferenceException refused = assertThrows(InferenceException.class,
                    () -> core.submit(new InferenceRequest("memory").id("c")
                        .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, mine)
                        .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row)));
                assertEquals(ErrorCode.INVALID_ARG, refused.code());
                assertTrue(refused.getMessage().startsWith("[request id: c] input 'INPUT0' for model 'memory': its"
                    + " memory belongs to a confined arena"), refused.getMessage());
                assertTrue(refused.getMessage().contains("Arena.ofShared()"), refused.getMessage());
            }
            final Arena closed = Arena.ofShared();
            final MemorySegment freed = closed.allocate(64, 4);
            closed.close();
            final InferenceException gone = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("memory").id("f")
                    .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, row)
                    .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, freed)));
            assertEquals("[request id: f] input 'INPUT1' for model 'memory': its memory was freed (the arena it came"
                + " from is closed)", gone.getMessage());
            try (InferenceResponse ok = await(core.submit(new InferenceRequest("memory")
                .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, row)
                .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, row))))
            {
                assertTrue(ok.isOk(), "the model keeps serving");
            }
        }
    }

    @Test
    void aRequestInFlightCannotBeResubmittedOrChanged() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("flight", 8, "dynamic_batching {}")))
        {
            final var recorder = recording.recorder("flight");
            final InferenceRequest request = tagged("flight", GATE, 1);
            final var future = core.submit(request);
            recorder.awaitGateReached();
            assertThrows(IllegalStateException.class, () -> core.submit(request));
            assertThrows(IllegalStateException.class, () -> request.priority(3));
            recorder.openGate();
            // The refused resubmission changed nothing of the flight it raced: the first answer is the request's own.
            try (InferenceResponse first = await(future))
            {
                assertTrue(first.isOk(), () -> String.valueOf(first.error()));
                assertEquals(GATE, first.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, 0));
            }
            // Delivered: the request is reusable.
            request.clearInputs().addInput("INPUT0", DataType.INT32, new long[] {1, 1},
                Arena.ofAuto().allocate(4));
            assertTrue(await(core.submit(request)).isOk());
        }
    }

    @Test
    void aRequestRefusedAtSubmitIsNotLeftInFlight() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("refused", 8, "dynamic_batching {}")))
        {
            final InferenceRequest request = new InferenceRequest("refused").id("bad")
                .addInput("INPUT0", DataType.FP32, new long[] {1, 1}, Arena.ofAuto().allocate(4));
            final InferenceException invalid = assertThrows(InferenceException.class, () -> core.submit(request));
            assertEquals(ErrorCode.INVALID_ARG, invalid.code());
            assertTrue(invalid.getMessage()
                .contains("'INPUT0' data-type is 'FP32', but model 'refused' expects 'INT32'"), invalid.getMessage());
            // Fixed, the same request object is accepted and answered: the refusal left nothing of it in flight.
            request.clearInputs().addInput("INPUT0", DataType.INT32, new long[] {1, 1},
                Arena.ofAuto().allocate(4).fill((byte)7));
            try (InferenceResponse response = await(core.submit(request)))
            {
                assertTrue(response.isOk(), () -> String.valueOf(response.error()));
                assertEquals(0x07070707, response.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, 0));
            }
            assertEquals(0, core.modelStatistics("refused", -1).get(0).pendingRequests());
        }
    }
}
