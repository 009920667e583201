package io.ingot.core;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.config.proto.ModelConfig;
import io.ingot.instance.PooledResponseAllocator;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.ingot.core.SlicingBackend.FAIL;
import static io.ingot.core.SlicingBackend.GATE;
import static io.ingot.core.SlicingBackend.SKIP1;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A batch of two or more requests whose output memory is the core's pool: each requested output is allocated once
 * for the batch, the engine writes it in place, and each response gets a slice of its rows; the allocation returns to
 * the pool exactly once, when the last response holding a slice is closed — whatever the order, whatever failed.
 */
class SharedOutputSlicesTest
{
    private final SlicingBackend backend = new SlicingBackend();
    private final PooledResponseAllocator pool = new PooledResponseAllocator();
    /** Gated batches so far: each gate request has a different number of rows, so a response cache never has it. */
    private int gates;

    private InferenceCore core(final ModelConfig config)
    {
        return InferenceCore.open(TestModels.options(config).backend(backend).responseAllocator(pool).build());
    }

    private static InferenceRequest request(final String model, final int value, final int rows,
        final String... outputs)
    {
        final InferenceRequest request = tagged(model, value, rows);
        for (final String output : outputs)
        {
            request.requestOutput(output);
        }
        return request;
    }

    /** Runs the requests as one batch (behind a gated batch of one) and returns their responses, in order. */
    private List<InferenceResponse> batch(final InferenceCore core, final InferenceRequest... requests)
        throws InterruptedException
    {
        final String model = requests[0].modelName();
        final CompletableFuture<InferenceResponse> gate = core.submit(tagged(model, GATE, 1 + gates++ % 4));
        backend.awaitGateReached();
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (final InferenceRequest request : requests)
        {
            futures.add(core.submit(request));
        }
        backend.openGate();
        await(gate).close();
        final List<InferenceResponse> responses = new ArrayList<>();
        for (final CompletableFuture<InferenceResponse> future : futures)
        {
            responses.add(await(future));
        }
        return responses;
    }

    private static int value(final InferenceResponse response, final String output, final int row)
    {
        return response.output(output).data().getAtIndex(ValueLayout.JAVA_INT, row);
    }

    private static long address(final InferenceResponse response, final String output)
    {
        return response.output(output).data().address();
    }

    @Test
    void eachResponseIsAViewOfTheRowsTheEngineWroteInPlace() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("views", 8, 1, "dynamic_batching {}")))
        {
            final List<InferenceResponse> responses = batch(core, request("views", 5, 2), request("views", 6, 1),
                request("views", 7, 1));
            final SlicingBackend.Run run = backend.last();
            assertEquals(List.of(5, 5, 6, 7), run.rows());
            final long before = pool.sharedReturns();
            long offset = 0;
            for (int r = 0; r < 3; r++)
            {
                final InferenceResponse response = responses.get(r);
                assertTrue(response.isOk(), response::toString);
                assertEquals(run.output0() + offset, address(response, "OUTPUT0"), "OUTPUT0 of response " + r
                    + " is its rows of the memory the engine wrote: nothing copied after the run");
                assertEquals(run.output1() + offset, address(response, "OUTPUT1"));
                final OutputTensor output = response.output("OUTPUT0");
                assertEquals(output.dim(0) * 4, output.data().byteSize(), "exactly its rows");
                assertEquals(5 + r, value(response, "OUTPUT0", 0));
                assertEquals(1005 + r, value(response, "OUTPUT1", 0));
                offset += output.data().byteSize();
            }
            assertEquals(2, responses.get(0).output("OUTPUT0").dim(0));
            assertEquals(1, responses.get(1).output("OUTPUT0").dim(0));
            responses.forEach(InferenceResponse::close);
            assertEquals(before + 2, pool.sharedReturns(), "each of the two outputs returned once");
        }
    }

    @Test
    void theSharedOutputReturnsOnceWhenItsLastResponseClosesInAnyOrder() throws Exception
    {
        final int[][] orders = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        try (InferenceCore core = core(SlicingBackend.model("orders", 8, 1, "dynamic_batching {}")))
        {
            for (final int[] order : orders)
            {
                final List<InferenceResponse> responses = batch(core, request("orders", 1, 1, "OUTPUT0"),
                    request("orders", 2, 1, "OUTPUT0"), request("orders", 3, 1, "OUTPUT0"));
                final long before = pool.sharedReturns();
                for (int i = 0; i < order.length; i++)
                {
                    assertEquals(before, pool.sharedReturns(), "returned while " + (order.length - i)
                        + " responses still hold slices (closing order " + java.util.Arrays.toString(order) + ")");
                    responses.get(order[i]).close();
                }
                assertEquals(before + 1, pool.sharedReturns(), "returned exactly once after the last close");
                responses.get(order[0]).close();
                assertEquals(before + 1, pool.sharedReturns(), "closing a response again releases nothing more");
            }
        }
    }

    @Test
    void aSliceIsNeverReusedWhileAResponseHoldsIt() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("held", 8, 1, "dynamic_batching {}")))
        {
            final List<InferenceResponse> first = batch(core, request("held", 11, 1, "OUTPUT0"),
                request("held", 12, 1, "OUTPUT0"));
            final long firstBlock = backend.last().output0();
            first.get(1).close();
            for (int round = 0; round < 3; round++)
            {
                final List<InferenceResponse> later = batch(core, request("held", 21 + round, 1, "OUTPUT0"),
                    request("held", 31 + round, 1, "OUTPUT0"));
                assertNotEquals(firstBlock, backend.last().output0(),
                    "a block a response still holds a slice of is not handed out again");
                later.forEach(InferenceResponse::close);
            }
            final long afterLater = backend.last().output0();
            assertEquals(11, value(first.get(0), "OUTPUT0", 0), "the held slice kept its bytes");
            first.get(0).close();
            final List<InferenceResponse> reuse = batch(core, request("held", 41, 1, "OUTPUT0"),
                request("held", 42, 1, "OUTPUT0"));
            assertTrue(List.of(firstBlock, afterLater).contains(backend.last().output0()),
                "a returned block is pooled and handed out again");
            assertEquals(41, value(reuse.get(0), "OUTPUT0", 0));
            assertEquals(42, value(reuse.get(1), "OUTPUT0", 0));
            reuse.forEach(InferenceResponse::close);
        }
    }

    @Test
    void anOutputIsSharedOnlyByTheResponsesThatAskedForIt() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("asked", 8, 1, "dynamic_batching {}")))
        {
            final List<InferenceResponse> responses = batch(core, request("asked", 1, 1, "OUTPUT0"),
                request("asked", 2, 1, "OUTPUT1"), request("asked", 3, 1, "OUTPUT0", "OUTPUT1"));
            final SlicingBackend.Run run = backend.last();
            final long before = pool.sharedReturns();
            assertEquals(1, responses.get(0).outputCount());
            assertNull(responses.get(0).output("OUTPUT1"));
            assertEquals(1, responses.get(1).outputCount());
            assertEquals(run.output1() + 4, address(responses.get(1), "OUTPUT1"));
            assertEquals(1002, value(responses.get(1), "OUTPUT1", 0));
            assertEquals(run.output0() + 8, address(responses.get(2), "OUTPUT0"));
            assertEquals(3, value(responses.get(2), "OUTPUT0", 0));
            assertEquals(1003, value(responses.get(2), "OUTPUT1", 0));
            responses.get(2).close();
            responses.get(0).close();
            assertEquals(before + 1, pool.sharedReturns(), "OUTPUT0's last holder closed, OUTPUT1's not yet");
            responses.get(1).close();
            assertEquals(before + 2, pool.sharedReturns());
        }
    }

    @Test
    void aFailedRunReturnsItsSharedOutputsExactlyOnce() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("failed", 8, 1, "dynamic_batching {}")))
        {
            final long before = pool.sharedReturns();
            final List<InferenceResponse> responses = batch(core, request("failed", 1, 1),
                request("failed", FAIL, 1));
            assertEquals(List.of(1, FAIL), backend.last().rows());
            assertNotEquals(0, backend.last().output1(), "the engine allocated both outputs before it failed");
            for (final InferenceResponse response : responses)
            {
                assertFalse(response.isOk());
                assertTrue(response.error().getMessage().contains("injected failure"), response::toString);
                assertEquals(0, response.outputCount());
            }
            assertEquals(before + 2, pool.sharedReturns(), "both outputs returned once, by the instance");
            responses.forEach(InferenceResponse::close);
            assertEquals(before + 2, pool.sharedReturns());
            final List<InferenceResponse> next = batch(core, request("failed", 8, 1), request("failed", 9, 1));
            assertEquals(9, value(next.get(1), "OUTPUT0", 0));
            next.forEach(InferenceResponse::close);
            assertEquals(before + 4, pool.sharedReturns());
        }
    }

    @Test
    void aResponseWhoseWritingFailedReleasesTheSliceItHad() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("unwritten", 8, 1, "dynamic_batching {}")))
        {
            final List<InferenceResponse> responses = batch(core, request("unwritten", SKIP1, 1, "OUTPUT0",
                "OUTPUT1"), request("unwritten", 4, 1, "OUTPUT0"));
            final long before = pool.sharedReturns();
            assertFalse(responses.get(0).isOk());
            assertEquals("model 'unwritten' did not produce requested output 'OUTPUT1'",
                responses.get(0).error().getMessage());
            assertTrue(responses.get(1).isOk());
            assertEquals(4, value(responses.get(1), "OUTPUT0", 0));
            assertEquals(before, pool.sharedReturns(), "the other response still holds OUTPUT0");
            responses.get(1).close();
            assertEquals(before + 1, pool.sharedReturns(), "the failed response let go of its slice of OUTPUT0");
            responses.get(0).close();
            assertEquals(before + 1, pool.sharedReturns());
        }
    }

    @Test
    void aPaddingRowOfASequenceBatchHoldsItsRowsButNoSlice() throws Exception
    {
        try (InferenceCore core = core(SlicingBackend.model("padded", 4, 1,
            "sequence_batching { max_sequence_idle_microseconds: 60000000 direct { } }")))
        {
            try (InferenceResponse a = await(core.submit(request("padded", 5, 1, "OUTPUT0").sequence(1, true,
                false))); InferenceResponse b = await(core.submit(request("padded", 6, 1, "OUTPUT0")
                    .sequence(2, true, false))))
            {
                assertEquals(5, value(a, "OUTPUT0", 0));
                assertEquals(6, value(b, "OUTPUT0", 0));
            }
            final long before = pool.sharedReturns();
            try (InferenceResponse second = await(core.submit(request("padded", 7, 1, "OUTPUT0")
                .sequence(2, false, true))))
            {
                final SlicingBackend.Run run = backend.last();
                assertEquals(List.of(7, 7), run.rows(), "row 0 pads (a copy of the request), row 1 is sequence 2");
                assertTrue(second.isOk(), second::toString);
                assertEquals(run.output0() + 4, address(second, "OUTPUT0"), "its own row of the shared output");
                assertEquals(7, value(second, "OUTPUT0", 0));
                assertEquals(before, pool.sharedReturns());
            }
            assertEquals(before + 1, pool.sharedReturns(), "the padding row held nothing");
        }
    }

    @Test
    void aCachedResponseIsACopyThatOutlivesTheSharedOutput() throws Exception
    {
        final ModelConfig config = SlicingBackend.model("cached", 8, 1,
            "dynamic_batching {} response_cache { enable: true }");
        try (InferenceCore core = InferenceCore.open(TestModels.options(config).backend(backend)
            .responseAllocator(pool).responseCache(1 << 20).build()))
        {
            final List<InferenceResponse> responses = batch(core, request("cached", 51, 1, "OUTPUT0"),
                request("cached", 52, 1, "OUTPUT0"));
            final long block = backend.last().output0();
            assertEquals(block + 4, address(responses.get(1), "OUTPUT0"), "sliced though cacheable");
            responses.forEach(InferenceResponse::close);
            // The block goes back to the pool and is written by the next batch of the same size.
            batch(core, request("cached", 61, 1, "OUTPUT0"), request("cached", 62, 1, "OUTPUT0"))
                .forEach(InferenceResponse::close);
            final int runs = backend.runs.size();
            try (InferenceResponse hit = await(core.submit(request("cached", 52, 1, "OUTPUT0"))))
            {
                assertEquals(runs, backend.runs.size(), "answered from the cache");
                assertEquals(52, value(hit, "OUTPUT0", 0), "the cache kept a copy, not the slice");
            }
        }
    }

    @Test
    void preservedOrderHoldsLaterResponsesWithTheirSlices() throws Exception
    {
        // A queue delay with a preferred size of two: the two requests submitted together form one batch.
        try (InferenceCore core = core(SlicingBackend.model("ordered", 8, 2, "dynamic_batching {"
            + " preserve_ordering: true preferred_batch_size: [2] max_queue_delay_microseconds: 300000 }")))
        {
            final CompletableFuture<InferenceResponse> gated = core.submit(tagged("ordered", GATE, 1));
            backend.awaitGateReached();
            final CompletableFuture<InferenceResponse> a = core.submit(request("ordered", 71, 1, "OUTPUT0"));
            final CompletableFuture<InferenceResponse> b = core.submit(request("ordered", 72, 1, "OUTPUT0"));
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (backend.runs.isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            assertFalse(backend.runs.isEmpty(), "the other instance ran the later requests");
            assertFalse(a.isDone() || b.isDone(), "held behind the earlier request");
            final long before = pool.sharedReturns();
            backend.openGate();
            await(gated).close();
            try (InferenceResponse ra = await(a); InferenceResponse rb = await(b))
            {
                assertEquals(71, value(ra, "OUTPUT0", 0));
                assertEquals(72, value(rb, "OUTPUT0", 0));
                assertEquals(List.of(71, 72), backend.runs.getFirst().rows(), "one batch of the two");
                assertEquals(backend.runs.getFirst().output0() + 4, address(rb, "OUTPUT0"), "one shared output");
                assertEquals(before, pool.sharedReturns(), "held while the responses waited");
            }
            assertEquals(before + 1, pool.sharedReturns());
        }
    }
}
