package io.ingot.server.flow;

import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.ingot.api.CoreOptions;
import io.ingot.api.ModelStatistics;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancellation of sequences over gRPC, as Triton's {@code qa/L0_request_cancellation/scheduler_test.py} does it with
 * its models {@code sequence_direct} and {@code sequence_oldest} (identity, {@code execute_delay_ms}, one instance,
 * one slot): cancelling any queued request of a sequence cancels every queued request of that sequence, each
 * answered CANCELLED and counted in {@code nv_inference_request_failure{reason="CANCELED"}}, and frees the slot; a
 * backlogged sequence is cancelled as a whole; a cancel after the response changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SequenceCancellationTest
{
    /** Triton's configurations from test.sh, with a shorter delay. */
    static String sequenceModel(final String name, final String strategy)
    {
        return "name: '" + name + "' backend: 'identity' max_batch_size: 1"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [ -1 ] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [ -1 ] }]"
            + " instance_group [{ count: 1 kind: KIND_CPU }]"
            + " sequence_batching { " + strategy + " max_sequence_idle_microseconds: 60000000 }"
            + " parameters [{ key: 'execute_delay_ms' value: { string_value: '3000' } }]";
    }

    private final ServingFixture server = new ServingFixture(CoreOptions.builder()
        .model(TestModels.config(sequenceModel("sequence_direct", "direct { }")))
        .model(TestModels.config(sequenceModel("sequence_oldest", "oldest { max_candidate_sequences: 1 }")))
        .build(), UnaryOperator.identity());

    @AfterAll
    void stop()
    {
        server.close();
    }

    @BeforeAll
    void warmUp() throws Exception
    {
        // One sequence through each model first, so that a test's first request is not slowed by warming up.
        assertEquals(Status.Code.OK, new Call("sequence_direct", 100, true, true).await().getCode());
        assertEquals(Status.Code.OK, new Call("sequence_oldest", 100, true, true).await().getCode());
    }

    /** A gRPC call in flight, with what it was answered. */
    private final class Call implements StreamObserver<ModelInferResponse>
    {
        final CompletableFuture<Status> done = new CompletableFuture<>();
        private final Context.CancellableContext context = Context.current().withCancellation();

        Call(final String model, final long sequence, final boolean start)
        {
            this(model, sequence, start, false);
        }

        Call(final String model, final long sequence, final boolean start, final boolean end)
        {
            final ModelInferRequest request = ModelInferRequest.newBuilder().setModelName(model)
                .putParameters("sequence_id", InferParameter.newBuilder().setInt64Param(sequence).build())
                .putParameters("sequence_start", InferParameter.newBuilder().setBoolParam(start).build())
                .putParameters("sequence_end", InferParameter.newBuilder().setBoolParam(end).build())
                .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP32")
                    .addShape(1).addShape(8))
                .addRawInputContents(ByteString.copyFrom(ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN)
                    .array()))
                .build();
            context.run(() -> server.grpcAsync().modelInfer(request, this));
        }

        void cancel()
        {
            context.cancel(null);
        }

        Status await() throws Exception
        {
            return done.get(60, TimeUnit.SECONDS);
        }

        @Override
        public void onNext(final ModelInferResponse value)
        {
        }

        @Override
        public void onError(final Throwable t)
        {
            done.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted()
        {
            done.complete(Status.OK);
        }
    }

    private void awaitQueued(final String model, final long queued) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (statistics(model).pendingRequests() != queued)
        {
            assertTrue(System.nanoTime() < deadline, "never " + queued + " requests queued in " + model);
            Thread.sleep(5);
        }
    }

    private ModelStatistics statistics(final String model)
    {
        return server.core().modelStatistics(model, 1).getFirst();
    }

    /** @return {@code nv_inference_request_failure{model=…,reason="CANCELED",version="1"}} as Triton's test reads it */
    private long canceledMetric(final String model) throws Exception
    {
        try (HttpClient client = HttpClient.newHttpClient())
        {
            final String text = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.frontends().metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            final Matcher matcher = Pattern.compile("nv_inference_request_failure\\{model=\"" + model
                + "\",reason=\"CANCELED\",version=\"1\"} (\\d+)").matcher(text);
            assertTrue(matcher.find(), "no CANCELED failure metric for " + model);
            return Long.parseLong(matcher.group(1));
        }
    }

    private void cancellingAnyQueuedRequestCancelsTheSequence(final String model) throws Exception
    {
        final long before = canceledMetric(model);
        final Call start = new Call(model, 1, true);
        Thread.sleep(1000);  // the START request arrived and executes (for 3 s), as Triton's test sleeps 2 s
        final Call second = new Call(model, 1, false);
        final Call third = new Call(model, 1, false);
        awaitQueued(model, 2);
        assertFalse(second.done.isDone() || third.done.isDone());

        third.cancel();
        third.cancel();  // cancelled twice: one answer still
        final Status other = second.await();
        assertEquals(Status.Code.CANCELLED, other.getCode(), "the request nobody cancelled goes with its sequence");
        assertEquals("[request id: <id_unknown>] Request for model '" + model + "' was cancelled",
            other.getDescription());
        assertEquals(Status.Code.CANCELLED, third.await().getCode());
        assertEquals(Status.Code.OK, start.await().getCode(), "the executing request completes");
        start.cancel();  // a cancel after the response: nothing happens
        assertEquals(before + 2, canceledMetric(model));

        // The slot is free and the sequence forgotten: a new sequence runs; the old ID needs START again.
        assertEquals(Status.Code.OK, new Call(model, 2, true, true).await().getCode());
        final Status forgotten = new Call(model, 1, false).await();
        assertEquals(Status.Code.INVALID_ARGUMENT, forgotten.getCode());
        assertEquals("inference request for sequence 1 to model '" + model + "' must specify the START flag on the "
            + "first request of the sequence", forgotten.getDescription());
    }

    @Test
    void directCancellingAnyQueuedRequestCancelsTheWholeSequence() throws Exception
    {
        cancellingAnyQueuedRequestCancelsTheSequence("sequence_direct");
    }

    @Test
    void oldestCancellingAnyQueuedRequestCancelsTheWholeSequence() throws Exception
    {
        cancellingAnyQueuedRequestCancelsTheSequence("sequence_oldest");
    }

    @Test
    void cancellingABackloggedRequestCancelsTheBackloggedSequence() throws Exception
    {
        final String model = "sequence_direct";
        final long before = canceledMetric(model);
        final Call saturating = new Call(model, 11, true);
        Thread.sleep(1000);
        final Call first = new Call(model, 12, true);
        awaitQueued(model, 1);  // two calls in flight at once may reach the server in either order
        final Call second = new Call(model, 12, false);
        awaitQueued(model, 2);
        first.cancel();
        assertEquals(Status.Code.CANCELLED, first.await().getCode());
        final Status backlogged = second.await();
        assertEquals(Status.Code.CANCELLED, backlogged.getCode());
        assertEquals(Status.Code.OK, saturating.await().getCode());
        assertEquals(before + 2, canceledMetric(model));
        assertEquals(Status.Code.OK, new Call(model, 11, false, true).await().getCode(), "the running sequence "
            + "kept its slot and ends");
    }
}
