package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.config.ModelConfigParser;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tutorial form of a priority policy ({@code scheduling_policy { priority { ... } }}, priority 0 highest) and
 * Triton's own syntax for the same policy behave identically: same levels, same per-level queue limits, same
 * default level, same dispatch order.
 */
class TutorialPriorityFormBehaviourTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private static final String IO = " backend: 'recording' max_batch_size: 16"
        + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
        + " instance_group [{ kind: KIND_CPU count: 1 }] ";

    private static final String TUTORIAL = "name: 'tutorial'" + IO + "dynamic_batching { }"
        + " scheduling_policy { priority { default_priority: 1 priority_levels ["
        + " { priority: 0 max_queue_size: 1 }, { priority: 1 max_queue_size: 2 }, { priority: 2 max_queue_size: 3 } ]"
        + " } }";

    private static final String TRITON = "name: 'triton'" + IO + "dynamic_batching { priority_levels: 3"
        + " default_priority_level: 2"
        + " priority_queue_policy { key: 1 value { max_queue_size: 1 } }"
        + " priority_queue_policy { key: 2 value { max_queue_size: 2 } }"
        + " priority_queue_policy { key: 3 value { max_queue_size: 3 } } }";

    /** What one model did: accepted requests per submitted priority, and the dispatch order of the rows. */
    private record Outcome(List<Integer> acceptedPerPriority, List<List<Integer>> batches)
    {
    }

    private Outcome exercise(final String model, final String pbtxt) throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, ModelConfigParser.parse(pbtxt, model + ".pbtxt")))
        {
            final var recorder = recording.recorder(model);
            final CompletableFuture<InferenceResponse> gate = core.submit(tagged(model, GATE, 1));
            recorder.awaitGateReached();
            final List<CompletableFuture<InferenceResponse>> accepted = new ArrayList<>();
            final List<Integer> acceptedPerPriority = new ArrayList<>();
            // Priority 0 means "the default level"; 1..3 are levels; each gets more requests than any limit.
            for (int priority = 3; priority >= 0; priority--)
            {
                int count = 0;
                for (int i = 0; i < 5; i++)
                {
                    try
                    {
                        accepted.add(core.submit(tagged(model, priority * 10 + i, 1).priority(priority)));
                        count++;
                    }
                    catch (final InferenceException ex)
                    {
                        assertEquals(ErrorCode.UNAVAILABLE, ex.code());
                        assertTrue(ex.getMessage().endsWith("Exceeds maximum queue size"), ex.getMessage());
                    }
                }
                acceptedPerPriority.add(count);
            }
            recorder.openGate();
            assertTrue(await(gate).isOk());
            accepted.forEach(future -> assertTrue(await(future).isOk()));
            return new Outcome(acceptedPerPriority, List.copyOf(recorder.batches));
        }
    }

    @Test
    void tutorialFormAndTritonSyntaxProduceTheSameBehaviour() throws Exception
    {
        final Outcome tutorial = exercise("tutorial", TUTORIAL);
        final Outcome triton = exercise("triton", TRITON);
        assertEquals(triton, tutorial);
        // Level 3 takes 3, level 2 takes 2, level 1 takes 1, and priority 0 lands on the default level 2,
        // which is already full.
        assertEquals(List.of(3, 2, 1, 0), triton.acceptedPerPriority());
        // Strict priority: level 1 first, then level 2, then level 3, first-in first-out within each.
        assertEquals(List.of(10, 20, 21, 30, 31, 32), triton.batches().get(1));
    }
}
