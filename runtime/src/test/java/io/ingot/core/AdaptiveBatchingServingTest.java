package io.ingot.core;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A model that chooses an adaptive batch-formation policy through {@code parameters} loads and serves through the
 * core, on the {@code cost} built-in backend: every request answered once with its own data, in batches.
 */
class AdaptiveBatchingServingTest
{
    private static final int REQUESTS = 16;

    @ParameterizedTest
    @ValueSource(strings = {"adaptive", "aimd"})
    void servesEveryRequestInBatches(final String policy)
    {
        final String name = "cost_" + policy;
        try (InferenceCore core = TestModels.core(TestModels.config("name: '" + name + "' backend: 'cost'"
            + " max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " dynamic_batching { max_queue_delay_microseconds: 100000 }"
            + " parameters { key: 'base_us' value { string_value: '20000' } }"
            + " parameters { key: 'per_item_us' value { string_value: '100' } }"
            + " parameters { key: 'ingot.batching' value { string_value: '" + policy + "' } }"
            + " parameters { key: 'ingot.latency_slo_us' value { string_value: '200000' } }")))
        {
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++)
            {
                futures.add(core.submit(new InferenceRequest(name).id("r" + i).addInput("INPUT0", DataType.FP32,
                    new long[] {1, 1}, MemorySegment.ofArray(new float[] {i}))));
            }
            for (int i = 0; i < REQUESTS; i++)
            {
                try (InferenceResponse response = await(futures.get(i)))
                {
                    assertTrue(response.isOk(), String.valueOf(response.error()));
                    assertArrayEquals(new float[] {i}, response.output("OUTPUT0").data().toArray(
                        ValueLayout.JAVA_FLOAT), "request r" + i + " gets its own data back");
                }
            }
            final ModelStatistics stats = core.modelStatistics(name, -1).get(0);
            assertEquals(REQUESTS, stats.inferenceCount());
            // The first request runs alone for 20 ms while the others queue; they are then batched (the delay of
            // 100 ms is not what makes them wait: an adaptive policy ignores it).
            assertTrue(stats.executionCount() < REQUESTS, "batches formed: " + stats.executionCount()
                + " executions for " + REQUESTS + " requests");
        }
    }
}
