package io.ingot.core;

import io.ingot.api.BatchListener;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link InferenceCore#submit(InferenceBatch, io.ingot.api.BatchListener)}: every request of a batch gets exactly one
 * response in the batch — its result, or its own error when it is invalid or refused — and the listener is called
 * once, also when it throws; an empty batch is refused. Waits are bounded ({@link InferenceBatch#await(Duration)}).
 */
class BatchSubmissionTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final RecordingBackend recording = new RecordingBackend();

    private static int echoed(final InferenceResponse response)
    {
        return response.throwIfError().output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0);
    }

    @Test
    void everyRequestGetsItsOwnResultAndTheListenerRunsOncePerSubmission() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 8,
            "dynamic_batching { max_queue_delay_microseconds: 100 }"), TestModels.recording("other", 4, "")))
        {
            final InferenceBatch batch = new InferenceBatch(40);
            final AtomicInteger calls = new AtomicInteger();
            for (int round = 0; round < 3; round++)
            {
                for (int tag = 0; tag < 40; tag++)
                {
                    // Runs of one model and single requests of another: each run goes to its scheduler at once.
                    batch.add(tagged(tag % 10 == 9 ? "other" : "echo", round * 100 + tag, 1));
                }
                core.submit(batch, done -> calls.incrementAndGet());
                assertTrue(batch.await(WAIT), "the batch is done");
                assertEquals(round + 1, calls.get(), "the listener runs once per submission");
                for (int tag = 0; tag < 40; tag++)
                {
                    assertEquals(round * 100 + tag, echoed(batch.response(tag)), "request " + tag);
                }
                batch.closeResponses();
                assertEquals(40, batch.size(), "closing the responses keeps the requests for another submission");
                batch.clear();
            }
            assertTrue(recording.recorder("echo").batchSizes().stream().anyMatch(size -> size > 1),
                "requests submitted together are batched together: " + recording.recorder("echo").batchSizes());
        }
    }

    @Test
    void anInvalidRequestGetsItsErrorAndTheOthersTheirResults() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 8, "")))
        {
            final InferenceRequest alreadyInFlight = tagged("echo", GATE, 1);
            final var gate = core.submit(alreadyInFlight);
            recording.recorder("echo").awaitGateReached();
            final InferenceBatch batch = new InferenceBatch(8)
                .add(tagged("echo", 1, 1))
                .add(tagged("no_such_model", 2, 1))
                .add(tagged("echo", 3, 1))
                .add(new InferenceRequest("echo").id("r4").addInput("INPUT0", DataType.FP32, new long[] {1, 1},
                    MemorySegment.ofArray(new float[1])))
                .add(tagged("echo", 5, 9))
                .add(alreadyInFlight)
                .add(tagged("echo", 7, 1));
            core.submit(batch, BatchListener.NONE);
            recording.recorder("echo").openGate();
            assertTrue(batch.await(WAIT), "the batch is done");
            gate.get().close();
            assertEquals(1, echoed(batch.response(0)));
            assertError(batch.response(1), ErrorCode.INVALID_ARG, "Request for unknown model: 'no_such_model' is not "
                + "found");
            assertEquals(3, echoed(batch.response(2)));
            assertError(batch.response(3), ErrorCode.INVALID_ARG, "[request id: r4] inference input 'INPUT0' "
                + "data-type is 'FP32', but model 'echo' expects 'INT32'");
            assertError(batch.response(4), ErrorCode.INVALID_ARG, "batch-size must be <= 8");
            assertError(batch.response(5), ErrorCode.INVALID_ARG, "is already in flight");
            assertEquals(7, echoed(batch.response(6)));
            assertSame(batch.request(1), batch.response(1).request(), "an error answers its own request");
            batch.closeResponses();
        }
    }

    @Test
    void aFullQueueRefusesTheRequestsPastItsLimitAndServesTheRest() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("limited", 1,
            "dynamic_batching { default_queue_policy { max_queue_size: 3 } }")))
        {
            final var gate = core.submit(tagged("limited", GATE, 1));
            recording.recorder("limited").awaitGateReached();
            final InferenceBatch batch = new InferenceBatch(8);
            for (int tag = 0; tag < 8; tag++)
            {
                batch.add(tagged("limited", tag, 1));
            }
            core.submit(batch, BatchListener.NONE);
            recording.recorder("limited").openGate();
            assertTrue(batch.await(WAIT), "the batch is done");
            gate.get().close();
            for (int tag = 0; tag < 8; tag++)
            {
                if (tag < 3)
                {
                    assertEquals(tag, echoed(batch.response(tag)), "request " + tag + " fits the queue");
                }
                else
                {
                    assertError(batch.response(tag), ErrorCode.UNAVAILABLE, "[request id: r" + tag
                        + "] Exceeds maximum queue size");
                }
            }
            batch.closeResponses();
        }
    }

    @Test
    void requestsOfTwoBatchesAndSingleRequestsRunInOneExecutedBatchAndEachBatchCompletesOnce() throws Exception
    {
        // The instance delivers an executed batch's finals together and counts each InferenceBatch's run of them
        // with one decrement: interleaved batches and plain listeners in one executed batch must all complete.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 16,
            "dynamic_batching { max_queue_delay_microseconds: 100000 preferred_batch_size: [ 12 ] }")))
        {
            final var gate = core.submit(tagged("echo", GATE, 1));
            recording.recorder("echo").awaitGateReached();
            final InferenceBatch first = new InferenceBatch(4);
            final InferenceBatch second = new InferenceBatch(4);
            for (int tag = 0; tag < 4; tag++)
            {
                first.add(tagged("echo", tag, 1));
                second.add(tagged("echo", 10 + tag, 1));
            }
            final AtomicInteger firstCalls = new AtomicInteger();
            final AtomicInteger secondCalls = new AtomicInteger();
            final var single = core.submit(tagged("echo", 20, 1));
            core.submit(first, done -> firstCalls.incrementAndGet());
            final var between = core.submit(tagged("echo", 21, 1));
            core.submit(second, done -> secondCalls.incrementAndGet());
            final var last = core.submit(tagged("echo", 22, 1));
            recording.recorder("echo").openGate();
            assertTrue(first.await(WAIT) && second.await(WAIT), "both batches are done");
            assertEquals(1, firstCalls.get(), "the first batch's listener runs once");
            assertEquals(1, secondCalls.get(), "the second batch's listener runs once");
            for (int tag = 0; tag < 4; tag++)
            {
                assertEquals(tag, echoed(first.response(tag)), "first batch, request " + tag);
                assertEquals(10 + tag, echoed(second.response(tag)), "second batch, request " + tag);
            }
            try (InferenceResponse a = single.get(); InferenceResponse b = between.get();
                InferenceResponse c = last.get(); InferenceResponse g = gate.get())
            {
                assertEquals(20, echoed(a));
                assertEquals(21, echoed(b));
                assertEquals(22, echoed(c));
            }
            assertTrue(recording.recorder("echo").batchSizes().contains(11),
                "the eleven queued requests ran as one batch: " + recording.recorder("echo").batchSizes());
            first.closeResponses();
            second.closeResponses();
        }
    }

    @Test
    void anEmptyBatchIsRefusedAndNothingIsInFlight()
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 8, "")))
        {
            final InferenceBatch batch = new InferenceBatch(4);
            final AtomicInteger calls = new AtomicInteger();
            final InferenceException empty = assertThrows(InferenceException.class,
                () -> core.submit(batch, done -> calls.incrementAndGet()));
            assertEquals(ErrorCode.INVALID_ARG, empty.code());
            assertEquals("the batch holds no request: add at least one before submitting it", empty.getMessage());
            assertFalse(batch.isDone());
            assertFalse(batch.await(Duration.ofMillis(1)), "nothing was submitted");
            assertEquals(0, calls.get());
            assertThrows(IllegalArgumentException.class, () -> core.submit(batch.add(tagged("echo", 1, 1)), null));
            core.submit(batch, BatchListener.NONE);
            assertTrue(batch.await(WAIT));
            assertEquals(1, echoed(batch.response(0)));
            assertThrows(IllegalStateException.class, () -> core.submit(batch, BatchListener.NONE),
                "a done batch is cleared before it is submitted again");
            batch.closeResponses();
        }
    }

    @Test
    void aListenerThatThrowsIsCountedAndLosesNothing() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 8, "")))
        {
            final List<InferenceBatch> seen = new CopyOnWriteArrayList<>();
            final InferenceBatch batch = new InferenceBatch(4);
            for (int tag = 0; tag < 4; tag++)
            {
                batch.add(tagged("echo", tag, 1));
            }
            for (int round = 0; round < 3; round++)
            {
                core.submit(batch, done ->
                {
                    seen.add(done);
                    throw new IllegalStateException("listener failure " + seen.size());
                });
                assertTrue(batch.await(WAIT), "the batch is done although its listener throws");
                final long deadline = System.nanoTime() + WAIT.toNanos();
                while (batch.listenerFailures() < round + 1 && System.nanoTime() < deadline)
                {
                    Thread.onSpinWait();
                }
                assertEquals(round + 1, batch.listenerFailures(), "each failure is counted");
                for (int tag = 0; tag < 4; tag++)
                {
                    assertEquals(tag, echoed(batch.response(tag)), "the responses stay in the batch");
                }
                batch.closeResponses();
            }
            assertEquals(3, seen.size());
            try (InferenceResponse after = core.submit(tagged("echo", 9, 1)).get())
            {
                assertEquals(9, echoed(after), "the instance that ran the listener serves on");
            }
        }
    }

    @Test
    void aBatchSubmittedToAClosedCoreIsAnsweredWithTheStoppingError()
    {
        final InferenceCore core = TestModels.core(recording, TestModels.recording("echo", 8, ""));
        core.close();
        final InferenceBatch batch = new InferenceBatch(2).add(tagged("echo", 1, 1)).add(tagged("echo", 2, 1));
        core.submit(batch, BatchListener.NONE);
        assertTrue(batch.isDone(), "every request was refused during the submission");
        assertError(batch.response(0), ErrorCode.UNAVAILABLE, "Server is stopping");
        assertError(batch.response(1), ErrorCode.UNAVAILABLE, "Server is stopping");
        batch.closeResponses();
    }

    private static void assertError(final InferenceResponse response, final ErrorCode code, final String text)
    {
        assertFalse(response.isOk(), () -> "expected an error containing '" + text + "'");
        assertEquals(code, response.error().code(), response.error().getMessage());
        assertTrue(response.error().getMessage().contains(text), () -> "'" + response.error().getMessage()
            + "' should contain '" + text + "'");
    }
}
