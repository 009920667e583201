package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequence batcher end to end in a core: Triton's {@code simple_sequence} model ({@code (INPUT + START) *
 * READY}) and an accumulator served by the Direct strategy, with the checks and messages of Triton's
 * {@code SequenceBatchScheduler::Enqueue} (core {@code src/sequence_batch_scheduler/sequence_batch_scheduler.cc}) and
 * the values Triton's {@code simple_*_sequence_*_client} examples send.
 */
class SequenceBatcherTest
{
    /** Triton's client examples send these values in each of their two sequences. */
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};

    private static String model(final String name, final String backend, final int maxBatch, final int instances,
        final long idleUs, final String extraControl)
    {
        return "name: '" + name + "' backend: '" + backend + "' max_batch_size: " + maxBatch
            + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " sequence_batching { max_sequence_idle_microseconds: " + idleUs + " control_input ["
            + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] }"
            + extraControl + " ] }"
            + " instance_group [{ kind: KIND_CPU count: " + instances + " }]";
    }

    private static InferenceCore open(final String... configs)
    {
        final CoreOptions.Builder options = CoreOptions.builder();
        for (final String config : configs)
        {
            options.model(TestModels.config(config));
        }
        return InferenceCore.open(options.build());
    }

    private static InferenceRequest request(final String model, final long id, final boolean start,
        final boolean end, final int value)
    {
        final MemorySegment data = Arena.ofAuto().allocate(4, 4);
        data.set(ValueLayout.JAVA_INT, 0, value);
        return new InferenceRequest(model).sequence(id, start, end)
            .addInput("INPUT", DataType.INT32, new long[] {1, 1}, data);
    }

    private static int output(final InferenceResponse response)
    {
        assertTrue(response.isOk(), String.valueOf(response.error()));
        return response.output("OUTPUT").data().get(ValueLayout.JAVA_INT, 0);
    }

    @Test
    void simpleSequenceSeesStartOnTheFirstRequestAndReadyOnEvery() throws Exception
    {
        try (InferenceCore core = open(model("simple_sequence", "simple_sequence", 8, 1, 5_000_000, "")))
        {
            final List<Integer> outputs = new ArrayList<>();
            for (int i = 0; i < VALUES.length; i++)
            {
                try (InferenceResponse response = await(core.submit(request("simple_sequence", 1000, i == 0,
                    i == VALUES.length - 1, VALUES[i]))))
                {
                    outputs.add(output(response));
                }
            }
            assertEquals(List.of(12, 7, 5, 3, 2, 0, 1), outputs);
        }
    }

    @Test
    void concurrentSequencesEachKeepTheirOwnRowAndSum() throws Exception
    {
        try (InferenceCore core = open(model("acc", "sequence_accumulator", 4, 2, 5_000_000, ""));
             ExecutorService pool = Executors.newFixedThreadPool(6))
        {
            final List<Future<List<Integer>>> sums = new ArrayList<>();
            for (int s = 0; s < 6; s++)
            {
                final long id = 1000 + s;
                final int sign = s % 2 == 0 ? 1 : -1;
                sums.add(pool.submit(() ->
                {
                    final List<Integer> got = new ArrayList<>();
                    for (int round = 0; round < 20; round++)
                    {
                        for (int i = 0; i < VALUES.length; i++)
                        {
                            final boolean start = i == 0;
                            final boolean end = i == VALUES.length - 1;
                            try (InferenceResponse response = await(core.submit(request("acc", id, start, end,
                                sign * VALUES[i]))))
                            {
                                got.add(output(response));
                            }
                        }
                    }
                    return got;
                }));
            }
            final List<Integer> expected = new ArrayList<>();
            for (int round = 0; round < 20; round++)
            {
                int sum = 0;
                for (final int value : VALUES)
                {
                    sum += value;
                    expected.add(sum);
                }
            }
            for (int s = 0; s < sums.size(); s++)
            {
                final int sign = s % 2 == 0 ? 1 : -1;
                assertEquals(expected.stream().map(v -> sign * v).toList(), sums.get(s).get(), "sequence " + s);
            }
        }
    }

    /**
     * An instance whose slots were empty hands the batching role to the instance whose slots had work and sleeps.
     * When its own sequence then sends a request while the other instance runs a long batch, it must be woken to
     * serve it: the request must not wait for a batch of another sequence on another instance.
     */
    @Test
    void anIdleInstanceServesItsSequenceWhileTheOtherInstanceRunsALongBatch() throws Exception
    {
        final RecordingBackend backend = new RecordingBackend();
        try (InferenceCore core = TestModels.core(backend, TestModels.config(model("gated", RecordingBackend.NAME, 1,
            2, 60_000_000, ""))))
        {
            // Triton's free-slot order: sequence 1000 takes instance 0's slot, sequence 1001 instance 1's.
            await(core.submit(request("gated", 1000, true, false, 1))).close();
            await(core.submit(request("gated", 1001, true, false, 2))).close();
            final CompletableFuture<InferenceResponse> gated = core.submit(request("gated", 1000, false, false,
                RecordingBackend.GATE));
            backend.recorder("gated").awaitGateReached();
            Thread.sleep(100);  // long enough for the other instance to be asleep, not spinning
            try
            {
                final CompletableFuture<InferenceResponse> other = core.submit(request("gated", 1001, false, true, 7));
                try (InferenceResponse response = other.get(20, TimeUnit.SECONDS))
                {
                    assertEquals(7, output(response));
                }
                assertFalse(gated.isDone(), "sequence 1000's batch was still at the gate");
            }
            finally
            {
                backend.recorder("gated").openGate();
            }
            try (InferenceResponse response = await(gated))
            {
                assertEquals(RecordingBackend.GATE, output(response));
            }
        }
    }

    @Test
    void requestsOutsideASequenceAreRefusedWithTritonsMessages() throws Exception
    {
        try (InferenceCore core = open(model("simple_sequence", "simple_sequence", 8, 1, 5_000_000, "")))
        {
            final InferenceException noId = assertThrows(InferenceException.class, () -> core.submit(
                request("simple_sequence", 0, true, false, 1)));
            assertEquals(ErrorCode.INVALID_ARG, noId.code());
            assertEquals("inference request to model 'simple_sequence' must specify a non-zero or non-empty "
                + "correlation ID", noId.getMessage());

            final MemorySegment two = Arena.ofAuto().allocate(8, 4);
            final InferenceException batched = assertThrows(InferenceException.class, () -> core.submit(
                new InferenceRequest("simple_sequence").sequence(5, true, false)
                    .addInput("INPUT", DataType.INT32, new long[] {2, 1}, two)));
            assertEquals("inference request to model 'simple_sequence' must specify batch-size 1 due to "
                + "requirements of sequence batcher", batched.getMessage());

            try (InferenceResponse response = await(core.submit(request("simple_sequence", 77, false, false, 1))))
            {
                assertFalse(response.isOk());
                assertEquals(ErrorCode.INVALID_ARG, response.error().code());
                assertTrue(response.error().getMessage().contains("inference request for sequence 77 to model "
                    + "'simple_sequence' must specify the START flag on the first request of the sequence"),
                    response.error().getMessage());
            }
        }
    }

    @Test
    void anEndedOrIdleSequenceNeedsANewStart() throws Exception
    {
        try (InferenceCore core = open(model("short_idle", "simple_sequence", 2, 1, 20_000, "")))
        {
            try (InferenceResponse first = await(core.submit(request("short_idle", 9, true, false, 1))))
            {
                assertEquals(2, output(first));
            }
            // The idle limit is 20 ms; sleeping ten times as long only makes sure it has passed.
            Thread.sleep(200);
            try (InferenceResponse late = await(core.submit(request("short_idle", 9, false, false, 1))))
            {
                assertFalse(late.isOk(), "an idle sequence is released");
                assertTrue(late.error().getMessage().contains("must specify the START flag"),
                    late.error().getMessage());
            }
            try (InferenceResponse once = await(core.submit(request("short_idle", 9, true, true, 4))))
            {
                assertEquals(5, output(once));
            }
            try (InferenceResponse after = await(core.submit(request("short_idle", 9, false, false, 1))))
            {
                assertFalse(after.isOk(), "END forgets the ID");
            }
        }
    }

    @Test
    void aSequenceBeyondTheSlotsWaitsForTheEndOfTheOneHoldingIt() throws Exception
    {
        try (InferenceCore core = open(model("one_slot", "sequence_accumulator", 1, 1, 5_000_000, "")))
        {
            assertEquals(3, output(await(core.submit(request("one_slot", 1, true, false, 3)))));
            final CompletableFuture<InferenceResponse> waiting = core.submit(request("one_slot", 2, true, true, 10));
            assertFalse(waiting.isDone(), "sequence 2 has no slot while sequence 1 holds the only one");
            assertEquals(7, output(await(core.submit(request("one_slot", 1, false, true, 4)))));
            assertEquals(10, output(await(waiting)), "sequence 2 starts its own sum in the freed row");
        }
    }

    @Test
    void theOldestStrategyServesTritonsSimpleDynaSequenceOnTwoInstances() throws Exception
    {
        final String dyna = "name: 'simple_dyna_sequence' backend: 'simple_sequence' max_batch_size: 8"
            + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " sequence_batching { max_sequence_idle_microseconds: 10000000"
            + " oldest { max_candidate_sequences: 1024 max_queue_delay_microseconds: 10000 }"
            + " control_input ["
            + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'END' control [{ kind: CONTROL_SEQUENCE_END int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] },"
            + " { name: 'CORRID' control [{ kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 }] } ] }"
            + " instance_group [{ kind: KIND_CPU count: 2 }]";
        try (InferenceCore core = open(dyna))
        {
            final List<CompletableFuture<InferenceResponse>> first = new ArrayList<>();
            final List<CompletableFuture<InferenceResponse>> second = new ArrayList<>();
            for (int i = 0; i < VALUES.length; i++)
            {
                final boolean start = i == 0;
                final boolean end = i == VALUES.length - 1;
                first.add(core.submit(request("simple_dyna_sequence", 1000, start, end, VALUES[i])));
                second.add(core.submit(request("simple_dyna_sequence", 1001, start, end, -VALUES[i])));
            }
            for (int i = 0; i < VALUES.length; i++)
            {
                final int startBit = i == 0 ? 1 : 0;
                final int endBit = i == VALUES.length - 1 ? 1 : 0;
                assertEquals(VALUES[i] + startBit + endBit * 1000, output(await(first.get(i))), "request " + i);
                assertEquals(-VALUES[i] + startBit + endBit * 1001, output(await(second.get(i))), "request " + i);
            }
        }
    }

    private static String stateful(final String name, final String strategy, final String initial)
    {
        return "name: '" + name + "' backend: 'sequence_accumulator' max_batch_size: 4"
            + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
            // 60 s idle: Triton's 1 s default released sequences between two requests on a machine at load 20+.
            + " sequence_batching { " + strategy + " max_sequence_idle_microseconds: 60000000 control_input ["
            + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
            + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] } ]"
            + " state [{ input_name: 'SUM_IN' output_name: 'SUM_OUT' data_type: TYPE_INT32 dims: [1] " + initial
            + " }] }"
            + " instance_group [{ kind: KIND_CPU count: 2 }]";
    }

    /** Six sequences at once, each sending the values twenty times; every answer the sequence's running sum. */
    private static void assertRunningSums(final InferenceCore core, final String model, final int offset)
        throws Exception
    {
        try (ExecutorService pool = Executors.newFixedThreadPool(6))
        {
            final List<Future<List<Integer>>> sums = new ArrayList<>();
            for (int s = 0; s < 6; s++)
            {
                final long id = 500 + s;
                sums.add(pool.submit(() ->
                {
                    final List<Integer> got = new ArrayList<>();
                    for (int round = 0; round < 20; round++)
                    {
                        for (int i = 0; i < VALUES.length; i++)
                        {
                            try (InferenceResponse response = await(core.submit(request(model, id, i == 0,
                                i == VALUES.length - 1, VALUES[i] * (int) id))))
                            {
                                got.add(output(response));
                            }
                        }
                    }
                    return got;
                }));
            }
            for (int s = 0; s < sums.size(); s++)
            {
                final int scale = 500 + s;
                final List<Integer> expected = new ArrayList<>();
                for (int round = 0; round < 20; round++)
                {
                    int sum = offset;
                    for (final int value : VALUES)
                    {
                        sum += value * scale;
                        expected.add(sum);
                    }
                }
                assertEquals(expected, sums.get(s).get(), "sequence " + scale);
            }
        }
    }

    @Test
    void implicitStateCarriesEachSequencesSumUnderBothStrategies() throws Exception
    {
        final String zeros = "initial_state [{ data_type: TYPE_INT32 dims: [1] zero_data: true name: 'zeros' }]";
        try (InferenceCore core = open(stateful("direct_state", "", zeros),
            stateful("oldest_state", "oldest { max_candidate_sequences: 8 max_queue_delay_microseconds: 100 }",
                "")))
        {
            assertRunningSums(core, "direct_state", 0);
            assertRunningSums(core, "oldest_state", 0);
        }
    }

    @Test
    void anInitialStateFromAFileStartsEverySequence(@TempDir final Path repo) throws Exception
    {
        final Path model = Files.createDirectories(repo.resolve("from_file"));
        Files.createDirectories(model.resolve("1"));
        Files.createDirectories(model.resolve("initial_state"));
        Files.write(model.resolve("initial_state/hundred.bin"), ByteBuffer.allocate(4)
            .order(ByteOrder.LITTLE_ENDIAN).putInt(100).array());
        Files.writeString(model.resolve("config.pbtxt"), stateful("from_file", "",
            "initial_state [{ data_type: TYPE_INT32 dims: [1] data_file: 'hundred.bin' name: 'hundred' }]"));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            assertTrue(core.isModelReady("from_file", 1), core.repositoryIndex(false).toString());
            assertRunningSums(core, "from_file", 100);
        }
        Files.write(model.resolve("initial_state/hundred.bin"), new byte[3]);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            final String reason = core.repositoryIndex(false).get(0).reason();
            assertTrue(reason.contains("expects 4 bytes") && reason.contains("has 3 bytes"), reason);
        }
    }

    @Test
    void stringIdsReachAStringCorridAndANumberIsRefusedThere() throws Exception
    {
        final String corrid = ", { name: 'CORRID' control [{ kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_STRING }] }";
        try (InferenceCore core = open(model("by_name", "simple_sequence", 4, 1, 5_000_000, corrid)))
        {
            final MemorySegment data = Arena.ofAuto().allocate(4, 4);
            try (InferenceResponse response = await(core.submit(new InferenceRequest("by_name")
                .sequence("session-a", true, true).addInput("INPUT", DataType.INT32, new long[] {1, 1}, data))))
            {
                assertEquals(1, output(response));
            }
            final InferenceException numeric = assertThrows(InferenceException.class,
                () -> core.submit(request("by_name", 5, true, true, 1)));
            assertEquals("sequence batching control 'CORRID' data-type is 'UINT64', but model 'by_name' expects "
                + "'BYTES'", numeric.getMessage());
        }
    }
}
