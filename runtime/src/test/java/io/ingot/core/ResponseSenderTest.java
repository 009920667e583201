package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchRequest;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ResponseSender;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an engine may do through its batch's response senders and request views, beyond a decoupled model's
 * streaming in {@code execute} ({@link DecoupledModelTest}): keep a decoupled request open after {@code execute}
 * returned and end it from another thread (the runtime ends it UNAVAILABLE when the model unloads with it still
 * open); send an error as a response of its own; give an output its own data type; answer each request of a
 * one-response model on its own ({@code Engine.respondsPerRequest}), one request's error not failing its neighbours;
 * and read what each request carries ({@link BatchRequest}).
 */
class ResponseSenderTest
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    /** Runs the test's script as the engine of every model it serves; responds per request when asked. */
    static final class Scripted implements BackendFactory
    {
        volatile Consumer<Batch> script;

        @Override
        public String name()
        {
            return "scripted";
        }

        @Override
        public Backend load(final ModelContext context)
        {
            return instance -> new Engine()
            {
                @Override
                public void execute(final Batch batch)
                {
                    script.accept(batch);
                }

                @Override
                public boolean respondsPerRequest()
                {
                    return true;
                }
            };
        }
    }

    private static ModelConfig config(final String name, final boolean decoupled, final int maxBatch)
    {
        return TestModels.config("name: '" + name + "' backend: 'scripted' max_batch_size: " + maxBatch
            + (decoupled ? " model_transaction_policy { decoupled: true }" : "")
            + (maxBatch > 0 ? " dynamic_batching { max_queue_delay_microseconds: 200000 }" : "")
            + " input [{ name: 'N' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUT' data_type: TYPE_INT32 dims: [1] },"
            + " { name: 'ALSO' data_type: TYPE_INT32 dims: [1] }]");
    }

    private static InferenceRequest request(final String model, final int n)
    {
        return new InferenceRequest(model).addInput("N", DataType.INT32, model.equals("each") ? new long[] {1, 1}
            : new long[] {1}, MemorySegment.ofArray(new int[] {n}));
    }

    /** Copies every response's OUT (or its error) as it arrives. */
    static final class Stream implements io.ingot.api.ResponseStreamListener
    {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onResponse(final InferenceResponse response, final boolean last)
        {
            if (response == null)
            {
                events.add("final");
                return;
            }
            try (response)
            {
                final String what = !response.isOk() ? response.error().code() + " " + response.error().getMessage()
                    : response.output("OUT").dataType() + " " + response.output("OUT").data().get(INT, 0);
                events.add(last ? what + " final" : what);
            }
        }

        String next() throws InterruptedException
        {
            final String event = events.poll(20, TimeUnit.SECONDS);
            assertNotNull(event, "no response within 20 s");
            return event;
        }
    }

    @Test
    void aKeptOpenRequestIsAnsweredFromAnotherThreadAfterExecuteReturned() throws Exception
    {
        final Scripted backend = new Scripted();
        final BlockingQueue<ResponseSender> kept = new LinkedBlockingQueue<>();
        backend.script = batch -> kept.add(batch.responseSender(0).keepOpen());
        try (InferenceCore core = TestModels.core(backend, config("open", true, 0)))
        {
            final Stream first = new Stream();
            final Stream second = new Stream();
            core.submit(request("open", 1), first);
            core.submit(request("open", 2), second);  // the instance is free again: execute returned
            final ResponseSender a = kept.poll(20, TimeUnit.SECONDS);
            final ResponseSender b = kept.poll(20, TimeUnit.SECONDS);
            assertNotNull(a);
            assertNotNull(b);
            final Thread other = new Thread(() ->
            {
                a.allocateOutput("OUT", new long[] {1}).set(INT, 0, 10);
                a.send(false);
                a.sendError(ErrorCode.UNAVAILABLE, "a step failed", false);
                a.allocateOutput("OUT", DataType.INT64, new long[] {1}, 8).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 11);
                a.send(true);
                b.sendFinal();
            });
            other.start();
            other.join();
            assertEquals("INT32 10", first.next());
            assertEquals("UNAVAILABLE a step failed", first.next());
            assertEquals("INT64 11 final", first.next(), "an output keeps the data type the engine gave it");
            assertEquals("final", second.next());
            assertThrows(IllegalStateException.class, () -> a.send(true), "nothing after the final");
            // execute() of the second batch may still be returning on the instance's thread: its execution is
            // counted when it returns, so wait (bounded) for the count rather than race it
            ModelStatistics stats = core.modelStatistics("open", -1).getFirst();
            for (int tries = 0; stats.executionCount() < 2 && tries < 4000; tries++)
            {
                Thread.sleep(5);
                stats = core.modelStatistics("open", -1).getFirst();
            }
            assertEquals(2, stats.executionCount());
            assertEquals(2, stats.inferenceStats().success().count());
        }
    }

    @Test
    void aRequestStillOpenWhenItsModelUnloadsIsEndedUnavailable() throws Exception
    {
        final Scripted backend = new Scripted();
        final List<ResponseSender> kept = new ArrayList<>();
        backend.script = batch -> kept.add(batch.responseSender(0).keepOpen());
        final Stream stream = new Stream();
        try (InferenceCore core = TestModels.core(backend, config("forgetful", true, 0)))
        {
            core.submit(request("forgetful", 1), stream);
            for (int tries = 0; core.modelStatistics("forgetful", -1).getFirst().executionCount() == 0
                && tries < 4000; tries++)
            {
                Thread.sleep(5);
            }
            assertNull(stream.events.poll(20, TimeUnit.MILLISECONDS), "still open after execute");
        }
        final String last = stream.next();
        assertTrue(last.startsWith("UNAVAILABLE model 'forgetful' version 1 instance "), last);
        assertTrue(last.endsWith("stopped before it ended the request final"), last);
    }

    @Test
    void aOneResponseEngineAnswersEachRequestOnItsOwn() throws Exception
    {
        final Scripted backend = new Scripted();
        final List<String> seen = new ArrayList<>();
        backend.script = batch ->
        {
            for (int r = 0; r < batch.requestCount(); r++)
            {
                final ResponseSender sender = batch.responseSender(r);
                final BatchRequest request = batch.request(r);
                synchronized (seen)
                {
                    seen.add(request.id() + " rows=" + request.rows() + " also=" + request.isOutputRequested("ALSO"));
                }
                switch (request.id())
                {
                    case "good" ->
                    {
                        assertThrows(IllegalStateException.class, () -> sender.send(false));
                        sender.allocateOutput("OUT", new long[] {request.rows(), 1}).set(INT, 0, 7);
                        sender.send(true);
                    }
                    case "refused" -> sender.sendError(ErrorCode.INVALID_ARG, "N must be positive", true);
                    default ->
                    {
                        // left without a response
                    }
                }
            }
        };
        try (InferenceCore core = TestModels.core(backend, config("each", false, 8)))
        {
            final CompletableFuture<InferenceResponse> good = core.submit(request("each", 1).id("good")
                .requestOutput("OUT"));
            final CompletableFuture<InferenceResponse> refused = core.submit(request("each", 1).id("refused"));
            final CompletableFuture<InferenceResponse> silent = core.submit(request("each", 1).id("silent"));
            try (InferenceResponse response = TestModels.await(good).throwIfError())
            {
                assertEquals(7, response.output("OUT").data().get(INT, 0));
            }
            try (InferenceResponse response = TestModels.await(refused))
            {
                assertEquals(ErrorCode.INVALID_ARG, response.error().code());
                assertEquals("N must be positive", response.error().getMessage());
            }
            try (InferenceResponse response = TestModels.await(silent))
            {
                assertEquals(ErrorCode.INTERNAL, response.error().code());
                assertEquals("model 'each' ended request 'silent' without a response", response.error().getMessage());
            }
            assertTrue(seen.contains("good rows=1 also=false") && seen.contains("refused rows=1 also=true"),
                seen.toString());
            final ModelStatistics stats = core.modelStatistics("each", -1).getFirst();
            assertEquals(1, stats.inferenceStats().success().count());
            assertEquals(2, stats.inferenceStats().fail().count());
        }
    }

    @Test
    void aBatchRequestCarriesWhatTheCallerGaveIt() throws Exception
    {
        final Scripted backend = new Scripted();
        final CompletableFuture<String> described = new CompletableFuture<>();
        backend.script = batch ->
        {
            final BatchRequest request = batch.request(0);
            final StringBuilder text = new StringBuilder(request.id());
            for (int p = 0; p < request.parameterCount(); p++)
            {
                text.append(' ').append(request.parameterName(p)).append('=').append(request.parameterValue(p));
            }
            text.append(" corr=").append(request.correlationId()).append('/').append(request.correlationKey())
                .append(" start=").append(request.sequenceStart()).append(" end=").append(request.sequenceEnd())
                .append(" timeout=").append(request.timeoutMicros()).append(" cancelled=")
                .append(request.isCancelled());
            described.complete(text.toString());
            batch.responseSender(0).sendFinal();
        };
        try (InferenceCore core = TestModels.core(backend, config("described", true, 0)))
        {
            final Stream stream = new Stream();
            core.submit(request("described", 1).id("d1").parameter("s", "x").parameter("i", 5L)
                .parameter("b", true).parameter("f", 0.5).sequence(9, true, false).timeoutMicros(60_000_000), stream);
            assertEquals("d1 s=x i=5 b=true f=0.5 corr=9/null start=true end=false timeout=60000000 cancelled=false",
                described.get(20, TimeUnit.SECONDS));
            assertEquals("final", stream.next());
        }
    }
}
