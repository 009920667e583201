package io.ingot.core;

import io.ingot.api.DecoupledModelException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseStreamListener;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ResponseSender;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decoupled models in a core ({@code model_transaction_policy { decoupled: true }}): the example {@code repeat_int32}
 * served by the built-in {@code repeat} backend streams one response per element with its delays and a flags-only
 * final, and every request ends with exactly one final — after an engine failure mid-stream (an error final after
 * the responses already sent), a cancellation, a shutdown while streaming, and for a request the engine never
 * completed (a flags-only final from the runtime).
 */
class DecoupledModelTest
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    /** One call of a {@link ResponseStreamListener}, with what it carried copied out. */
    record Event(boolean last, boolean hasResponse, int out, int idx)
    {
    }

    /** Copies each response's OUT and IDX (or its error) and closes it. */
    static final class Collector implements ResponseStreamListener
    {
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        final List<String> errors = new ArrayList<>();

        @Override
        public void onResponse(final InferenceResponse response, final boolean last)
        {
            if (response == null)
            {
                events.add(new Event(last, false, -1, -1));
                return;
            }
            try (response)
            {
                if (!response.isOk())
                {
                    synchronized (errors)
                    {
                        errors.add(response.error().code() + ": " + response.error().getMessage());
                    }
                    events.add(new Event(last, true, -1, -1));
                    return;
                }
                events.add(new Event(last, true, value(response, "OUT"), value(response, "IDX")));
            }
        }

        Event next() throws InterruptedException
        {
            final Event event = events.poll(20, TimeUnit.SECONDS);
            assertNotNull(event, "no response within 20 s");
            return event;
        }

        String lastError()
        {
            synchronized (errors)
            {
                return errors.getLast();
            }
        }
    }

    private static int value(final InferenceResponse response, final String output)
    {
        return response.outputCount() == 0 || !hasOutput(response, output) ? -1
            : response.output(output).data().get(INT, 0);
    }

    private static boolean hasOutput(final InferenceResponse response, final String output)
    {
        for (int i = 0; i < response.outputCount(); i++)
        {
            if (response.output(i).name().equals(output))
            {
                return true;
            }
        }
        return false;
    }

    static ModelConfig exampleConfig() throws IOException
    {
        // The module's directory, or its target/ when a fuzzing run (working directory target/) picks the test up.
        Path root = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        if (!Files.isDirectory(root))
        {
            root = Path.of("../../examples/models");
        }
        return TestModels.config(Files.readString(root.resolve("repeat_int32").resolve("config.pbtxt")));
    }

    private static MemorySegment ints(final int... values)
    {
        final MemorySegment data = Arena.ofAuto().allocate(Math.max(4, 4L * values.length), 4);
        for (int i = 0; i < values.length; i++)
        {
            data.setAtIndex(INT, i, values[i]);
        }
        return values.length == 0 ? data.asSlice(0, 0) : data;
    }

    static InferenceRequest repeat(final int[] in, final int[] delayMs, final int waitMs)
    {
        return new InferenceRequest("repeat_int32").id("r")
            .addInput("IN", DataType.INT32, new long[] {in.length}, ints(in))
            .addInput("DELAY", DataType.UINT32, new long[] {delayMs.length}, ints(delayMs))
            .addInput("WAIT", DataType.UINT32, new long[] {1}, ints(waitMs));
    }

    @Test
    void repeatStreamsOneResponsePerElementWithDelaysThenAFlagsOnlyFinal() throws Exception
    {
        try (InferenceCore core = TestModels.core(exampleConfig()))
        {
            final Collector collector = new Collector();
            core.submit(repeat(new int[] {4, 2, 0, 1}, new int[] {10, 20, 0, 5}, 50), collector);
            for (int e = 0; e < 4; e++)
            {
                final Event event = collector.next();
                assertFalse(event.last(), "response " + e + " is not the final");
                assertEquals(new int[] {4, 2, 0, 1}[e], event.out(), "OUT of response " + e);
                assertEquals(e, event.idx(), "IDX of response " + e);
            }
            final Event last = collector.next();
            assertTrue(last.last());
            assertFalse(last.hasResponse(), "Triton's repeat backend sends its final as flags alone");
            assertNull(collector.events.poll(50, TimeUnit.MILLISECONDS), "nothing after the final");

            // The batch is counted when execute returns, which is after the final here (WAIT holds the instance).
            ModelStatistics stats = core.modelStatistics("repeat_int32", InferenceRequest.DEFAULT_VERSION).getFirst();
            for (int tries = 0; stats.executionCount() == 0 && tries < 2000; tries++)
            {
                Thread.sleep(5);
                stats = core.modelStatistics("repeat_int32", InferenceRequest.DEFAULT_VERSION).getFirst();
            }
            assertEquals(1, stats.executionCount());
            assertEquals(1, stats.inferenceStats().success().count());
        }
    }

    @Test
    void responsesArriveWhileTheEngineIsStillStreamingAndACancelEndsTheStream() throws Exception
    {
        try (InferenceCore core = TestModels.core(exampleConfig()))
        {
            final Collector collector = new Collector();
            final InferenceRequest request = repeat(new int[] {7, 8}, new int[] {0, 600_000}, 0);
            core.submit(request, collector);
            final Event first = collector.next();
            // The second response is ten minutes away: the first was delivered as it was sent, not at the end.
            assertFalse(first.last());
            assertEquals(7, first.out());
            request.cancel();
            final Event last = collector.next();
            assertTrue(last.last());
            assertEquals("CANCELLED: [request id: r] Request for model 'repeat_int32' was cancelled",
                collector.lastError());
        }
    }

    @Test
    void anEmptyInGetsOnlyTheFinalAndMismatchedShapesGetTritonsErrorAsTheFinal() throws Exception
    {
        try (InferenceCore core = TestModels.core(exampleConfig()))
        {
            final Collector empty = new Collector();
            core.submit(repeat(new int[0], new int[0], 0), empty);
            final Event only = empty.next();
            assertTrue(only.last());
            assertFalse(only.hasResponse());

            final Collector mismatched = new Collector();
            core.submit(repeat(new int[] {1, 2, 3}, new int[] {0, 0}, 0), mismatched);
            assertTrue(mismatched.next().last());
            assertEquals("INVALID_ARG: expected IN and DELAY shape to match, got [3] and [2]",
                mismatched.lastError());
        }
    }

    @Test
    void theOneResponseFormsRefuseADecoupledModelAndTheStreamFormServesAnyModel() throws Exception
    {
        final ModelConfig identity = TestModels.config("name: 'identity' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]");
        try (InferenceCore core = TestModels.core(exampleConfig(), identity))
        {
            final InferenceRequest request = repeat(new int[] {1}, new int[] {0}, 0);
            final DecoupledModelException plain = assertThrows(DecoupledModelException.class,
                () -> core.submit(request, response -> response.close()));
            assertEquals(ErrorCode.UNSUPPORTED, plain.code());
            assertEquals("model 'repeat_int32' has a decoupled transaction policy and may send zero or many "
                + "responses per request: submit its requests with a ResponseStreamListener", plain.getMessage());
            assertThrows(DecoupledModelException.class, () -> core.submit(request));
            assertFalse(request.isInFlight(), "a refused request is not in flight");

            final CompletableFuture<Boolean> last = new CompletableFuture<>();
            final CompletableFuture<Integer> value = new CompletableFuture<>();
            core.submit(new InferenceRequest("identity").addInput("INPUT0", DataType.INT32, new long[] {1},
                ints(42)), (response, isLast) ->
                {
                    try (response)
                    {
                        value.complete(response.output("OUTPUT0").data().get(INT, 0));
                        last.complete(isLast);
                    }
                });
            assertEquals(42, value.get(20, TimeUnit.SECONDS));
            assertTrue(last.get(20, TimeUnit.SECONDS), "a one-response model's response is its final");
        }
    }

    @Test
    void anEngineFailureMidStreamEndsTheRequestWithOneErrorFinalAfterItsResponses() throws Exception
    {
        final ModelConfig config = TestModels.config("name: 'scripted' backend: 'scripted_stream' max_batch_size: 0"
            + " model_transaction_policy { decoupled: true }"
            + " input [{ name: 'N' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUT' data_type: TYPE_INT32 dims: [1] }]");
        try (InferenceCore core = TestModels.core(new ScriptedStreams(), config))
        {
            // N = 2: two responses, then the engine throws.
            final Collector failing = new Collector();
            core.submit(new InferenceRequest("scripted").addInput("N", DataType.INT32, new long[] {1}, ints(2)),
                failing);
            assertEquals(0, failing.next().out());
            assertEquals(1, failing.next().out());
            final Event last = failing.next();
            assertTrue(last.last());
            assertTrue(last.hasResponse());
            assertTrue(failing.lastError().startsWith("INTERNAL: model 'scripted' version 1 instance "),
                failing.lastError());
            assertTrue(failing.lastError().endsWith("failed to execute a batch of 1: engine broke after 2"),
                failing.lastError());
            assertNull(failing.events.poll(50, TimeUnit.MILLISECONDS), "exactly one final");

            // N = -1: the engine returns without a final; the runtime sends a flags-only one.
            final Collector silent = new Collector();
            core.submit(new InferenceRequest("scripted").addInput("N", DataType.INT32, new long[] {1}, ints(-1)),
                silent);
            final Event only = silent.next();
            assertTrue(only.last());
            assertFalse(only.hasResponse());

            final ModelStatistics stats = core.modelStatistics("scripted", InferenceRequest.DEFAULT_VERSION)
                .getFirst();
            assertEquals(1, stats.inferenceStats().fail().count());
            assertEquals(1, stats.inferenceStats().success().count());
        }
    }

    @Test
    void shutdownWhileStreamingEndsTheStreamAndTheQueuedRequestsWithOneFinalEach() throws Exception
    {
        final InferenceCore core = TestModels.core(exampleConfig().toBuilder().clearInstanceGroup()
            .addInstanceGroup(io.ingot.config.proto.ModelInstanceGroup.newBuilder().setCount(1)
                .setKind(io.ingot.config.proto.ModelInstanceGroup.Kind.KIND_CPU)).build());
        final Collector streaming = new Collector();
        final Collector queued = new Collector();
        try
        {
            core.submit(repeat(new int[] {5, 6}, new int[] {0, 600_000}, 0), streaming);
            assertEquals(5, streaming.next().out());
            core.submit(repeat(new int[] {9}, new int[] {0}, 0), queued);  // waits for the only instance
        }
        finally
        {
            core.close();  // returns once every accepted request has had its final
        }
        final Event last = streaming.next();
        assertTrue(last.last());
        assertEquals("UNAVAILABLE: [request id: r] Server is stopping, scheduler for model has stopped accepting "
            + "new inference requests", streaming.lastError());
        final Event queuedFinal = queued.next();
        assertTrue(queuedFinal.last());
        assertTrue(queued.lastError().startsWith("UNAVAILABLE: "), queued.lastError());
        assertTrue(streaming.events.isEmpty() && queued.events.isEmpty(), "one final each");
    }

    @Test
    void aRepeatModelThatDoesNotFitTheBackendFailsToLoadWithTritonsMessage() throws Exception
    {
        final ModelConfig twoInputs = exampleConfig().toBuilder().removeInput(2).build();
        try (InferenceCore core = TestModels.core(twoInputs))
        {
            final ModelIndexEntry entry = core.repositoryIndex(false).getFirst();
            assertEquals("UNAVAILABLE", entry.state());
            assertTrue(entry.reason().contains("expected 3 inputs, got 2"), entry.reason());
        }
    }

    /**
     * {@code scripted_stream}: for {@code N >= 0}, sends N responses ({@code OUT = i}) and then throws; for a
     * negative N it returns without sending anything.
     */
    static final class ScriptedStreams implements BackendFactory
    {
        @Override
        public String name()
        {
            return "scripted_stream";
        }

        @Override
        public Backend load(final ModelContext context)
        {
            return instance -> batch ->
            {
                final ResponseSender sender = batch.responseSender(0);
                final int n = batch.input("N").data().get(INT, 0);
                for (int i = 0; i < n; i++)
                {
                    sender.allocateOutput("OUT", new long[] {1}).set(INT, 0, i);
                    sender.send(false);
                }
                if (n >= 0)
                {
                    throw new IllegalStateException("engine broke after " + n);
                }
            };
        }
    }
}
