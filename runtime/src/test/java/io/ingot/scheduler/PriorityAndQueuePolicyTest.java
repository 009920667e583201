package io.ingot.scheduler;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Priority levels (§2.7), queue policies: timeouts, DELAY, override, max_queue_size (§2.8, §2.9, §2.14). */
@Isolated("timing: measures delays or idle periods, which tests running beside it would disturb")
class PriorityAndQueuePolicyTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private InferenceRequest prioritized(final String model, final int tag, final long priority)
    {
        return tagged(model, tag, 1).priority(priority);
    }

    private CompletableFuture<InferenceResponse> gate(final InferenceCore core, final String model)
        throws InterruptedException
    {
        final CompletableFuture<InferenceResponse> gate = core.submit(tagged(model, GATE, 1));
        recording.recorder(model).awaitGateReached();
        return gate;
    }

    @Test
    void higherPriorityRequestsGoFirstAndOneBatchMaySpanLevels() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("p1", 8,
            "dynamic_batching { priority_levels: 3 default_priority_level: 2 }")))
        {
            final CompletableFuture<InferenceResponse> gate = gate(core, "p1");
            final var low1 = core.submit(prioritized("p1", 31, 3));
            final var low2 = core.submit(prioritized("p1", 32, 3));
            final var mid = core.submit(prioritized("p1", 21, 2));
            final var high1 = core.submit(prioritized("p1", 11, 1));
            final var high2 = core.submit(prioritized("p1", 12, 1));
            recording.recorder("p1").openGate();
            for (final var future : List.of(gate, low1, low2, mid, high1, high2))
            {
                assertTrue(await(future).isOk());
            }
            // Priority levels disable prefetch: the batch forms once the instance is free, in strict level order,
            // first-in first-out within a level, spanning the levels.
            assertEquals(List.of(11, 12, 21, 31, 32), recording.recorder("p1").batches.get(1));
        }
    }

    @Test
    void lowerLevelsWaitUntilHigherLevelsAreEmpty() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("p2", 2,
            "dynamic_batching { priority_levels: 2 default_priority_level: 2 }")))
        {
            final var gate = gate(core, "p2");
            final var low1 = core.submit(prioritized("p2", 21, 2));
            final var low2 = core.submit(prioritized("p2", 22, 2));
            final var high1 = core.submit(prioritized("p2", 11, 1));
            final var high2 = core.submit(prioritized("p2", 12, 1));
            recording.recorder("p2").openGate();
            for (final var future : List.of(gate, low1, low2, high1, high2))
            {
                assertTrue(await(future).isOk());
            }
            assertEquals(List.of(List.of(GATE), List.of(11, 12), List.of(21, 22)),
                recording.recorder("p2").batches);
        }
    }

    @Test
    void zeroAndOutOfRangePrioritiesMapSilentlyToTheDefaultLevel() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("p3", 8,
            "dynamic_batching { priority_levels: 3 default_priority_level: 2 }")))
        {
            final var gate = gate(core, "p3");
            final var low = core.submit(prioritized("p3", 30, 3));
            final var zero = core.submit(prioritized("p3", 20, 0));
            final var huge = core.submit(prioritized("p3", 21, 99));
            final var high = core.submit(prioritized("p3", 10, 1));
            recording.recorder("p3").openGate();
            for (final var future : List.of(gate, low, zero, huge, high))
            {
                assertTrue(await(future).isOk());
            }
            assertEquals(List.of(10, 20, 21, 30), recording.recorder("p3").batches.get(1));
        }
    }

    @Test
    void rejectPolicyAnswersUnavailableWhenTheQueueTimeoutExpiresEvenWhileTheInstanceIsBusy() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("q1", 8,
            "dynamic_batching { default_queue_policy { timeout_action: REJECT default_timeout_microseconds: 100000 }"
                + " }")))
        {
            final var gate = gate(core, "q1");
            final InferenceResponse timedOut = await(core.submit(tagged("q1", 1, 1)));
            // The gate is still closed: the timeout fired while no instance was free.
            assertFalse(gate.isDone());
            assertEquals(ErrorCode.UNAVAILABLE, timedOut.error().code());
            assertEquals("Request timeout expired", timedOut.error().getMessage());
            recording.recorder("q1").openGate();
            assertTrue(await(gate).isOk());
            assertEquals(1, core.modelStatistics("q1", -1).get(0).inferenceStats().fail().count());
        }
    }

    @Test
    void delayPolicyMovesAnExpiredRequestBehindTheUnexpiredOnesOfItsLevel() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("q2", 8,
            "dynamic_batching { default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 100000 }"
                + " }")))
        {
            final var gate = gate(core, "q2");
            final var expired = core.submit(tagged("q2", 1, 1));
            Thread.sleep(250);
            final var fresh1 = core.submit(tagged("q2", 2, 1));
            final var fresh2 = core.submit(tagged("q2", 3, 1));
            recording.recorder("q2").openGate();
            for (final var future : List.of(gate, expired, fresh1, fresh2))
            {
                assertTrue(await(future).isOk(), "DELAY never rejects");
            }
            assertEquals(List.of(2, 3, 1), recording.recorder("q2").batches.get(1));
        }
    }

    @Test
    void timeoutOverrideCanOnlyShorten() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("q3", 8,
            "dynamic_batching { default_queue_policy { default_timeout_microseconds: 60000000 "
                + "allow_timeout_override: true } }")))
        {
            final var gate = gate(core, "q3");
            final var shortened = core.submit(tagged("q3", 1, 1).timeoutMicros(50_000));
            final var lengthened = core.submit(tagged("q3", 2, 1).timeoutMicros(600_000_000));
            final InferenceResponse rejected = await(shortened);
            assertEquals("Request timeout expired", rejected.error().getMessage());
            assertFalse(lengthened.isDone());
            recording.recorder("q3").openGate();
            assertTrue(await(lengthened).isOk());
            assertTrue(await(gate).isOk());
        }
    }

    @Test
    void overrideDoesNothingWhenTheDefaultTimeoutIsZero() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("q4", 8,
            "dynamic_batching { default_queue_policy { allow_timeout_override: true } }")))
        {
            final var gate = gate(core, "q4");
            final var request = core.submit(tagged("q4", 1, 1).timeoutMicros(1_000));
            Thread.sleep(200);
            recording.recorder("q4").openGate();
            assertTrue(await(request).isOk(), "a per-request timeout is ignored when the default is 0");
            assertTrue(await(gate).isOk());
        }
    }

    @Test
    void fullQueueIsRejectedSynchronouslyPerLevelWithTritonsMessage() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("q5", 8,
            "dynamic_batching { priority_levels: 2 default_priority_level: 1 "
                + "priority_queue_policy { key: 1 value { max_queue_size: 2 } } }")))
        {
            final var gate = gate(core, "q5");
            final var first = core.submit(prioritized("q5", 1, 1));
            final var second = core.submit(prioritized("q5", 2, 1));
            final InferenceException full = assertThrows(InferenceException.class,
                () -> core.submit(prioritized("q5", 3, 1)));
            assertEquals(ErrorCode.UNAVAILABLE, full.code());
            assertEquals("[request id: r3] Exceeds maximum queue size", full.getMessage());
            final InferenceException anonymous = assertThrows(InferenceException.class,
                () -> core.submit(prioritized("q5", 4, 1).id("")));
            assertEquals("[request id: <id_unknown>] Exceeds maximum queue size", anonymous.getMessage());
            // Level 2 has no limit of its own (the default policy has none): it still accepts.
            final var otherLevel = core.submit(prioritized("q5", 5, 2));
            recording.recorder("q5").openGate();
            for (final var future : List.of(gate, first, second, otherLevel))
            {
                assertTrue(await(future).isOk());
            }
            // Once batched, the level has room again.
            assertTrue(await(core.submit(prioritized("q5", 6, 1))).isOk());
        }
    }
}
