package io.ingot.server.http;

import io.ingot.api.CoreOptions;
import io.ingot.api.FailureReason;
import io.ingot.api.ModelStatistics;
import io.ingot.server.testing.RawHttp;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An HTTP client that goes away while its inference waits in the queue cancels it (what Triton's users ask for;
 * Triton cancels only over gRPC): the request is never executed, and counts as a CANCELED failure, which
 * {@code nv_inference_request_failure{reason="CANCELED"}} shows. A client that stays is answered as before, also when
 * it pipelines a second request behind the first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpDisconnectTest
{
    private static final String BODY = "{\"inputs\":[{\"name\":\"INPUT0\",\"shape\":[1,4],\"datatype\":\"FP32\","
        + "\"data\":[1,2,3,4]}]}";

    private final ServingFixture server = new ServingFixture(CoreOptions.builder()
        .model(TestModels.config("name: 'busy' backend: 'identity' max_batch_size: 1"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [ 4 ] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [ 4 ] }]"
            + " instance_group [{ count: 1 kind: KIND_CPU }] dynamic_batching { }"
            + " parameters [{ key: 'execute_delay_ms' value: { string_value: '1500' } }]"))
        .build(), UnaryOperator.identity());

    @AfterAll
    void stop()
    {
        server.close();
    }

    private ModelStatistics statistics()
    {
        return server.core().modelStatistics("busy", 1).getFirst();
    }

    private void awaitPending(final long pending) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (statistics().pendingRequests() != pending)
        {
            assertTrue(System.nanoTime() < deadline, "never " + pending + " requests pending");
            Thread.sleep(2);
        }
    }

    private static byte[] request()
    {
        final byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        return RawHttp.request("POST /v2/models/busy/infer HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
            + "\r\n\r\n", body);
    }

    @Test
    void aQueuedRequestWhoseClientClosedIsCancelledNeverExecutedAndCountedCanceled() throws Exception
    {
        // A first request warms the paths up, so that the next one surely arrives before the one sent after it.
        assertEquals(200, server.post("/v2/models/busy/infer", BODY).statusCode());
        final ModelStatistics before = statistics();
        final CompletableFuture<HttpResponse<byte[]>> running = server.http().sendAsync(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.httpUrl() + "/v2/models/busy/infer"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(BODY)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        awaitPending(0);
        Thread.sleep(300);  // the first request executes (1.5 s)
        try (Socket socket = new Socket("127.0.0.1", server.frontends().httpPort()))
        {
            socket.getOutputStream().write(request());
            awaitPending(1);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (statistics().failures().get(FailureReason.CANCELED) == before.failures().get(FailureReason.CANCELED))
        {
            assertTrue(System.nanoTime() < deadline, "the abandoned request was never cancelled");
            Thread.sleep(2);
        }
        assertEquals(200, running.get(30, TimeUnit.SECONDS).statusCode());
        final ModelStatistics after = statistics();
        assertEquals(before.executionCount() + 1, after.executionCount(), "the abandoned request never executed");
        assertEquals(before.failures().get(FailureReason.CANCELED) + 1, after.failures().get(FailureReason.CANCELED));
        assertEquals(0, after.pendingRequests());
    }

    @Test
    void aClientThatPipelinesTwoRequestsGetsBothAnswersInOrder() throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", server.frontends().httpPort()))
        {
            socket.setSoTimeout(30_000);
            final byte[] one = request();
            final byte[] both = new byte[one.length * 2];
            System.arraycopy(one, 0, both, 0, one.length);
            System.arraycopy(one, 0, both, one.length, one.length);
            socket.getOutputStream().write(both);
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < 2; i++)
            {
                final RawHttp.Response response = RawHttp.read(in);
                assertEquals(200, response.status(), response.body());
                assertTrue(response.body().contains("\"data\":[1.0,2.0,3.0,4.0]"), response.body());
            }
        }
    }
}
