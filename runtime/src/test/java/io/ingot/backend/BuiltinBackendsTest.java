package io.ingot.backend;

import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in backends: identity (including BYTES), add_sub (FP32 and INT32), cost. */
class BuiltinBackendsTest
{
    @Test
    void addSubComputesSumAndDifferenceInInt32()
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'as32' backend: 'add_sub' max_batch_size: 4"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [3] }, { name: 'INPUT1' data_type: TYPE_INT32"
            + " dims: [3] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [3] }, { name: 'OUTPUT1' data_type: TYPE_INT32"
            + " dims: [3] }]")))
        {
            final MemorySegment a = MemorySegment.ofArray(new int[] {5, 7, 9});
            final MemorySegment b = MemorySegment.ofArray(new int[] {1, 2, 3});
            try (InferenceResponse response = await(core.submit(new InferenceRequest("as32")
                .addInput("INPUT0", DataType.INT32, new long[] {1, 3}, a)
                .addInput("INPUT1", DataType.INT32, new long[] {1, 3}, b).requestOutput("OUTPUT1"))))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
                assertEquals(1, response.outputCount(), "only the requested output is returned");
                assertArrayEquals(new int[] {4, 5, 6},
                    response.output("OUTPUT1").data().toArray(ValueLayout.JAVA_INT));
            }
        }
    }

    @Test
    void addSubRefusesAConfigItCannotServe()
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'asbad' backend: 'add_sub' max_batch_size: 4"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP64 dims: [3] }, { name: 'INPUT1' data_type: TYPE_FP64 dims:"
            + " [3] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP64 dims: [3] }, { name: 'OUTPUT1' data_type: TYPE_FP64"
            + " dims: [3] }]")))
        {
            final ModelIndexEntry entry = core.repositoryIndex(false).get(0);
            assertEquals("UNAVAILABLE", entry.state());
            assertTrue(entry.reason().contains("TYPE_FP32 or TYPE_INT32"), entry.reason());
        }
    }

    @Test
    void identityReturnsBytesElementsUnchangedAcrossABatch()
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'idb' backend: 'identity' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_STRING dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_STRING dims: [-1] }]"
            + " dynamic_batching { max_queue_delay_microseconds: 50000 }")))
        {
            final List<String> words = List.of("alpha", "", "Ingöt");
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (final String word : words)
            {
                final byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
                final MemorySegment element = Arena.ofAuto().allocate(4 + bytes.length);
                element.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, bytes.length);
                MemorySegment.copy(bytes, 0, element, ValueLayout.JAVA_BYTE, 4, bytes.length);
                futures.add(core.submit(new InferenceRequest("idb").addInput("INPUT0", DataType.BYTES,
                    new long[] {1, 1}, element)));
            }
            for (int i = 0; i < words.size(); i++)
            {
                try (InferenceResponse response = await(futures.get(i)))
                {
                    assertTrue(response.isOk(), String.valueOf(response.error()));
                    final MemorySegment out = response.output("OUTPUT0").data();
                    final int length = out.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
                    assertEquals(words.get(i), new String(out.asSlice(4, length).toArray(ValueLayout.JAVA_BYTE),
                        StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void costTakesAtLeastItsConfiguredTime()
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'cost' backend: 'cost' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " parameters { key: 'base_us' value { string_value: '20000' } }"
            + " parameters { key: 'per_item_us' value { string_value: '5000' } }"
            + " parameters { key: 'mode' value { string_value: 'spin' } }")))
        {
            final long start = System.nanoTime();
            try (InferenceResponse response = await(core.submit(new InferenceRequest("cost").addInput("INPUT0",
                DataType.FP32, new long[] {2, 1}, MemorySegment.ofArray(new float[] {1.5f, 2.5f})))))
            {
                assertTrue(response.isOk());
                assertArrayEquals(new float[] {1.5f, 2.5f},
                    response.output("OUTPUT0").data().toArray(ValueLayout.JAVA_FLOAT));
            }
            final long tookUs = (System.nanoTime() - start) / 1000;
            assertTrue(tookUs >= 30_000, "a + b·batch = 30 ms, took " + tookUs + " µs");
            final double inferNs = core.modelStatistics("cost", -1).get(0).inferenceStats().computeInfer().ns();
            assertTrue(inferNs >= 30_000_000, "compute_infer counts the execution, was " + inferNs + " ns");
        }
    }

    @Test
    void costRejectsABadParameterNamingIt()
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'costbad' backend: 'cost' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [1] }]"
            + " parameters { key: 'base_us' value { string_value: 'soon' } }")))
        {
            final String reason = core.repositoryIndex(false).get(0).reason();
            assertTrue(reason.contains("'base_us'") && reason.contains("soon"), reason);
        }
    }
}
