package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.InferStatistics;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The response cache in a core, as Triton's statistics show it (server {@code docs/user_guide/response_cache.md},
 * core {@code src/dynamic_batch_scheduler.cc}): repeated identical requests are hits that skip the model, a changed
 * byte is a miss, hits count as successes but not as inferences or executions, and a model without
 * {@code response_cache} or a stateful model never uses it.
 */
class ResponseCacheServingTest
{
    private static final String CACHED = "name: 'cached' backend: 'add_sub' max_batch_size: 4"
        + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [4] },"
        + " { name: 'INPUT1' data_type: TYPE_INT32 dims: [4] }]"
        + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [4] },"
        + " { name: 'OUTPUT1' data_type: TYPE_INT32 dims: [4] }]"
        + " response_cache { enable: true }";

    private static InferenceRequest request(final String model, final int first)
    {
        final MemorySegment a = Arena.ofAuto().allocate(16, 4);
        final MemorySegment b = Arena.ofAuto().allocate(16, 4);
        for (int i = 0; i < 4; i++)
        {
            a.setAtIndex(ValueLayout.JAVA_INT, i, first + i);
            b.setAtIndex(ValueLayout.JAVA_INT, i, 1);
        }
        return new InferenceRequest(model).addInput("INPUT0", DataType.INT32, new long[] {1, 4}, a)
            .addInput("INPUT1", DataType.INT32, new long[] {1, 4}, b);
    }

    private static int sum(final InferenceCore core, final String model, final int first) throws Exception
    {
        try (InferenceResponse response = await(core.submit(request(model, first))))
        {
            assertTrue(response.isOk(), String.valueOf(response.error()));
            return response.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, 3);
        }
    }

    @Test
    void repeatedRequestsAreHitsAndAChangedByteIsAMiss() throws Exception
    {
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().responseCache(1 << 20)
            .model(TestModels.config(CACHED)).model(TestModels.config(CACHED.replace("'cached'", "'plain'")
                .replace("response_cache { enable: true }", ""))).build()))
        {
            for (int i = 0; i < 5; i++)
            {
                assertEquals(14, sum(core, "cached", 10));
                assertEquals(14, sum(core, "plain", 10));
            }
            assertEquals(24, sum(core, "cached", 20));
            final var stats = core.modelStatistics("cached", -1).get(0);
            final InferStatistics inference = stats.inferenceStats();
            assertEquals(4, inference.cacheHit().count());
            assertEquals(2, inference.cacheMiss().count());
            assertEquals(6, inference.success().count(), "hits are successes");
            assertEquals(6, inference.queue().count(), "and count in the queue statistics");
            assertEquals(2, inference.computeInfer().count(), "only misses reach the model");
            assertEquals(2, stats.inferenceCount());
            assertEquals(2, stats.executionCount());
            final InferStatistics plain = core.modelStatistics("plain", -1).get(0).inferenceStats();
            assertEquals(0, plain.cacheHit().count() + plain.cacheMiss().count());
            assertEquals(5, plain.computeInfer().count());
        }
    }

    @Test
    void withoutAServerCacheTheModelServesUncachedAndAStatefulModelIsRefused() throws Exception
    {
        final String sequence = "name: 'seq_cached' backend: 'simple_sequence' max_batch_size: 1"
            + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " sequence_batching { control_input ["
            + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] } ] }"
            + " response_cache { enable: true }";
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().model(TestModels.config(CACHED))
            .model(TestModels.config(sequence)).build()))
        {
            assertEquals(14, sum(core, "cached", 10));
            assertEquals(14, sum(core, "cached", 10));
            assertEquals(0, core.modelStatistics("cached", -1).get(0).inferenceStats().cacheHit().count());
            final String reason = core.repositoryIndex(false).stream().filter(e -> e.name().equals("seq_cached"))
                .findFirst().orElseThrow().reason();
            assertEquals("Response Cache does not currently support model seq_cached with sequence batching "
                + "scheduler. Please disable the response cache.", reason);
        }
    }
}
