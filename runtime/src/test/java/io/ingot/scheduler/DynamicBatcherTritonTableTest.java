package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.core.Core;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.RecordingBackend.Recorder;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per row of Triton's "preferred_batch_size vs max_batch_size" table (triton-scheduling.md §2.5), with
 * {@code max_batch_size: 8}.
 *
 * <p>"Queue contents" are produced the way they arise in Triton: the model's single instance is held busy by a gated
 * request while the requests queue up. Unless the row is about appending, prefetch is switched off with a harmless
 * {@code max_queue_size} (as in Triton, a queue policy with a size disables prefetch), so nothing is batched until the
 * instance is free and the batcher sees the whole queue at once.
 */
@Isolated("timing: measures delays or idle periods, which tests running beside it would disturb")
class DynamicBatcherTritonTableTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private static final String NO_PREFETCH = " default_queue_policy { max_queue_size: 1000 } ";

    /** Holds the instance with a gate request, queues {@code sizes}, opens the gate, returns the responses. */
    private List<InferenceResponse> runQueued(final InferenceCore core, final String model,
        final int... sizes) throws Exception
    {
        final Recorder recorder = recording.recorder(model);
        final CompletableFuture<InferenceResponse> gate = core.submit(tagged(model, GATE, 1));
        recorder.awaitGateReached();
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++)
        {
            futures.add(core.submit(tagged(model, i + 1, sizes[i])));
        }
        recorder.openGate();
        assertTrue(await(gate).isOk());
        final List<InferenceResponse> responses = new ArrayList<>();
        for (final CompletableFuture<InferenceResponse> future : futures)
        {
            final InferenceResponse response = await(future);
            assertTrue(response.isOk(), () -> String.valueOf(response.error()));
            responses.add(response);
        }
        return responses;
    }

    @Test
    void emptyDynamicBatchingSendsEverythingQueuedAsOneBatch() throws Exception
    {
        // dynamic_batching {} (preferred normalized to [8], delay 0), 5×1 → one batch of 5.
        try (InferenceCore core = TestModels.core(recording,
            TestModels.recording("t1", 8, "dynamic_batching {" + NO_PREFETCH + "}")))
        {
            runQueued(core, "t1", 1, 1, 1, 1, 1);
            assertEquals(List.of(1, 5), recording.recorder("t1").batchSizes());
        }
    }

    @Test
    void laterArrivalsAreAppendedToTheUntakenBatch() throws Exception
    {
        // The same row's second half: with prefetch, the batch formed from the first arrival stays appendable
        // until the instance takes it, so requests arriving one by one still end up in one batch of 5.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t1b", 8, "dynamic_batching {}")))
        {
            final Recorder recorder = recording.recorder("t1b");
            final CompletableFuture<InferenceResponse> gate = core.submit(tagged("t1b", GATE, 1));
            recorder.awaitGateReached();
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 1; i <= 5; i++)
            {
                futures.add(core.submit(tagged("t1b", i, 1)));
            }
            // All five are accepted (queued) while the instance is busy; the batch the instance takes when it frees
            // up holds them all, as Triton's appendable payload would.
            final Core impl = (Core)core;
            while (impl.queuedRequests("t1b", -1) < 5)
            {
                Thread.onSpinWait();
            }
            recorder.openGate();
            await(gate);
            futures.forEach(f -> assertTrue(await(f).isOk()));
            assertEquals(List.of(1, 5), recorder.batchSizes());
            assertEquals(List.of(1, 2, 3, 4, 5), recorder.batches.get(1));
        }
    }

    @Test
    void preferredSizeBeatsLargestPossibleEvenWithoutDelay() throws Exception
    {
        // preferred [4,8], delay 0, 5×1 → 4 now, then 1.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t2", 8,
            "dynamic_batching { preferred_batch_size: [4, 8]" + NO_PREFETCH + "}")))
        {
            runQueued(core, "t2", 1, 1, 1, 1, 1);
            final Recorder recorder = recording.recorder("t2");
            assertEquals(List.of(1, 4, 1), recorder.batchSizes());
            assertEquals(List.of(1, 2, 3, 4), recorder.batches.get(1), "first in, first batched");
            assertEquals(List.of(5), recorder.batches.get(2));
        }
    }

    @Test
    void largestPreferredSizeReachedWins() throws Exception
    {
        // preferred [4,8], delay 0, 9×1 → 8, then 1.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t3", 8,
            "dynamic_batching { preferred_batch_size: [4, 8]" + NO_PREFETCH + "}")))
        {
            runQueued(core, "t3", 1, 1, 1, 1, 1, 1, 1, 1, 1);
            assertEquals(List.of(1, 8, 1), recording.recorder("t3").batchSizes());
        }
    }

    @Test
    void waitsForTheQueueDelayMeasuredFromTheOldestRequest() throws Exception
    {
        // preferred [4], delay 300 ms, 3×1 → waits until the oldest is 300 ms old, then sends 3.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t4", 8,
            "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 300000 }")))
        {
            final long start = System.nanoTime();
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 1; i <= 3; i++)
            {
                futures.add(core.submit(tagged("t4", i, 1)));
            }
            futures.forEach(f -> assertTrue(await(f).isOk()));
            final Recorder recorder = recording.recorder("t4");
            assertEquals(List.of(3), recorder.batchSizes());
            final long waitedMs = (recorder.spans.get(0)[0] - start) / 1_000_000;
            assertTrue(waitedMs >= 299, "batch started after " + waitedMs + " ms, before the 300 ms delay");
        }
    }

    @Test
    void aFourthArrivalCompletesThePreferredSizeBeforeTheDelay() throws Exception
    {
        // preferred [4], long delay: the 4th request forms the preferred size, sent without waiting out the delay.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t4b", 8,
            "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 20000000 }")))
        {
            final long start = System.nanoTime();
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 1; i <= 4; i++)
            {
                futures.add(core.submit(tagged("t4b", i, 1)));
            }
            futures.forEach(f -> assertTrue(await(f).isOk()));
            assertEquals(List.of(4), recording.recorder("t4b").batchSizes());
            assertTrue(System.nanoTime() - start < 20_000_000_000L, "the delay was waited out");
        }
    }

    @Test
    void onceTheDelayExpiredPreferredSizesAreIgnored() throws Exception
    {
        // preferred [4], delay 100 ms already exceeded, 6×1 → sends 6.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t5", 8,
            "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 100000" + NO_PREFETCH
                + "}")))
        {
            final Recorder recorder = recording.recorder("t5");
            final CompletableFuture<InferenceResponse> gate = core.submit(tagged("t5", GATE, 1));
            recorder.awaitGateReached();
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 1; i <= 6; i++)
            {
                futures.add(core.submit(tagged("t5", i, 1)));
            }
            // Let the oldest queued request grow older than the queue delay while the instance is busy.
            Thread.sleep(250);
            recorder.openGate();
            await(gate);
            futures.forEach(f -> assertTrue(await(f).isOk()));
            assertEquals(List.of(1, 6), recorder.batchSizes());
        }
    }

    @Test
    void aRequestThatWouldPassTheLargestPreferredSizeSendsWhatIsPendingNow() throws Exception
    {
        // preferred [4], delay (long), queue 3,3 → sends 3 immediately; the other 3 waits for the delay.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t6", 8,
            "dynamic_batching { preferred_batch_size: [4] max_queue_delay_microseconds: 300000" + NO_PREFETCH
                + "}")))
        {
            final Recorder recorder = recording.recorder("t6");
            final CompletableFuture<InferenceResponse> gate = core.submit(tagged("t6", GATE, 1));
            recorder.awaitGateReached();
            final var first = core.submit(tagged("t6", 1, 3));
            // The delay runs from the second request's arrival, so its batch starts at least 300 ms after this. (Not
            // measured from the first batch's end: on a loaded machine the gate and the first batch may take a while.)
            final long secondQueuedNs = System.nanoTime();
            final var second = core.submit(tagged("t6", 2, 3));
            recorder.openGate();
            for (final CompletableFuture<InferenceResponse> future : List.of(gate, first, second))
            {
                assertTrue(await(future).isOk());
            }
            assertEquals(List.of(1, 3, 3), recorder.batchSizes());
            assertEquals(List.of(1, 1, 1), recorder.batches.get(1), "the first request is sent at once, alone");
            final long secondWaitedMs = (recorder.spans.get(2)[0] - secondQueuedNs) / 1_000_000;
            assertTrue(secondWaitedMs >= 300, "second batch of 3 should wait for the 300 ms delay, started "
                + secondWaitedMs + " ms after it was queued");
        }
    }

    @Test
    void preferredSizesAreReachedOnlyByExactCumulativeSums() throws Exception
    {
        // preferred [4], queue 3,3,3 → 4 is never formed: batches of 3.
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t7", 8,
            "dynamic_batching { preferred_batch_size: [4]" + NO_PREFETCH + "}")))
        {
            runQueued(core, "t7", 3, 3, 3);
            final List<Integer> sizes = recording.recorder("t7").batchSizes();
            assertEquals(List.of(1, 3, 3, 3), sizes);
            assertFalse(sizes.contains(4));
        }
    }

    @Test
    void aRequestLargerThanMaxBatchSizeIsRejectedAtValidation()
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("t8", 8, "dynamic_batching {}")))
        {
            final InferenceException ex = assertThrows(InferenceException.class,
                () -> core.submit(tagged("t8", 1, 9)));
            assertEquals(ErrorCode.INVALID_ARG, ex.code());
            assertEquals("[request id: r1] inference request batch-size must be <= 8 for 't8'", ex.getMessage());
            assertTrue(recording.recorder("t8").batches.isEmpty());
        }
    }
}
