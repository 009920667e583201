package io.ingot.cli;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.testing.ChildProcess;
import io.ingot.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ingot serve} in a process of its own, stopped by signals (issue 14, defect 4: SIGTERM closed the frontends
 * first, and 32 of 32 in-flight HTTP requests got no answer). Now every request in flight is answered: with its
 * result when its batch is running, UNAVAILABLE when it was still queued; then the process exits 0. A second
 * signal exits at once; the exit timeout bounds the wait.
 */
class ServeShutdownTest
{
    private static final String BODY = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"INT32\",\"shape\":[1,1],"
        + "\"data\":[%d]}]}";

    private static Path repository(final Path dir, final long executeMicros) throws IOException
    {
        final Path model = Files.createDirectories(dir.resolve("slow").resolve("1"));
        Files.writeString(model.getParent().resolve("config.pbtxt"), """
            name: "slow" backend: "cost" max_batch_size: 8
            input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [1] }]
            parameters { key: "base_us" value { string_value: "%d" } }
            dynamic_batching { }
            instance_group [{ kind: KIND_CPU count: 1 }]
            """.formatted(executeMicros));
        return dir;
    }

    private static ChildProcess serve(final Path repository, final int httpPort, final int grpcPort,
        final int metricsPort, final String exitTimeout) throws IOException, InterruptedException
    {
        final ChildProcess child = ChildProcess.start(IngotCli.class, "serve", "--model-repository",
            repository.toString(), "--http-port", Integer.toString(httpPort), "--grpc-port", Integer.toString(grpcPort),
            "--metrics-port", Integer.toString(metricsPort), "--exit-timeout-secs", exitTimeout);
        child.awaitLine("Ingot is serving", 120);
        return child;
    }

    /**
     * Waits, within a bound, until at least {@code queued} requests of model {@code slow} are queued or done (the
     * running batch holds the others) and the count has stopped growing, so that every request sent has been
     * accepted before the test signals the server: what a fixed sleep only hoped for on a loaded machine, where
     * sending 32 requests can take longer than a batch runs.
     */
    private static void awaitQueued(final HttpClient http, final int metricsPort, final int queued)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long last = -1;
        int steady = 0;
        while (System.nanoTime() < deadline)
        {
            final long now = queuedOrDone(http, metricsPort);
            steady = now >= queued && now == last ? steady + 1 : 0;
            if (steady >= 3)
            {
                return;
            }
            last = now;
            Thread.sleep(100);
        }
        throw new AssertionError("fewer than " + queued + " requests were queued within 60 s (last count " + last
            + "): " + http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
            .GET().build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static long queuedOrDone(final HttpClient http, final int metricsPort)
        throws IOException, InterruptedException
    {
        final String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort
            + "/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        long count = 0;
        for (final String line : metrics.split("\n"))
        {
            if ((line.startsWith("nv_inference_pending_request_count{") || line.startsWith("nv_inference_count{"))
                && line.contains("model=\"slow\""))
            {
                count += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return count;
    }

    /** SIGTERM, without {@link Process#destroy()}'s closing of the child's output, which the test still reads. */
    private static void terminate(final ChildProcess child)
    {
        assertTrue(child.process().toHandle().destroy(), "SIGTERM could not be sent");
    }

    @Test
    void sigtermWith32RequestsInFlightAnswersAll32AndExits(@TempDir final Path dir) throws Exception
    {
        final int httpPort = Ports.free();
        final int grpcPort = Ports.free();
        final int metricsPort = Ports.free();
        try (ChildProcess child = serve(repository(dir, 4_000_000), httpPort, grpcPort, metricsPort, "30");
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                 .connectTimeout(Duration.ofSeconds(10)).build())
        {
            final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
            final List<CompletableFuture<HttpResponse<String>>> httpCalls = new ArrayList<>();
            final List<ListenableFuture<ModelInferResponse>> grpcCalls = new ArrayList<>();
            final GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub grpc = GRPCInferenceServiceGrpc
                .newFutureStub(channel);
            for (int i = 0; i < 24; i++)
            {
                httpCalls.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
                    + "/v2/models/slow/infer")).timeout(Duration.ofSeconds(90))
                    .POST(HttpRequest.BodyPublishers.ofString(BODY.formatted(i))).build(),
                    HttpResponse.BodyHandlers.ofString()));
            }
            for (int i = 24; i < 32; i++)
            {
                grpcCalls.add(grpc.withDeadlineAfter(90, TimeUnit.SECONDS).modelInfer(ModelInferRequest.newBuilder()
                    .setModelName("slow").addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0")
                        .setDatatype("INT32").addShape(1).addShape(1))
                    .addRawInputContents(com.google.protobuf.ByteString.copyFrom(ByteBuffer.allocate(4)
                        .order(ByteOrder.LITTLE_ENDIAN).putInt(0, i)))
                    .build()));
            }
            // The first batch (at most 8 requests) runs for 4 s; the others wait in the queue.
            awaitQueued(http, metricsPort, 32 - 8);
            final long signalled = System.nanoTime();
            terminate(child);

            int results = 0;
            int unavailable = 0;
            for (int i = 0; i < httpCalls.size(); i++)
            {
                final HttpResponse<String> response = httpCalls.get(i).get(60, TimeUnit.SECONDS);
                if (response.statusCode() == 200)
                {
                    assertTrue(response.body().contains("\"data\":[" + i + "]"), response.body());
                    results++;
                }
                else
                {
                    assertEquals(503, response.statusCode(), response.body());
                    unavailable++;
                }
            }
            for (final ListenableFuture<ModelInferResponse> call : grpcCalls)
            {
                try
                {
                    call.get(60, TimeUnit.SECONDS);
                    results++;
                }
                catch (final ExecutionException failure)
                {
                    assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(failure.getCause()).getCode(),
                        failure.getCause().toString());
                    unavailable++;
                }
            }
            channel.shutdownNow();
            assertEquals(32, results + unavailable, "every request in flight is answered");
            assertTrue(results >= 1, "the running batch delivers its results: " + results + " results, "
                + unavailable + " UNAVAILABLE");
            assertEquals(0, child.awaitExit(60), child.output());
            System.out.println("DRAIN in_flight=32 results=" + results + " unavailable=" + unavailable
                + " exit_status=0 exit_ms=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled));
            assertTrue(child.output().contains("Received SIGTERM: stopping gracefully"), child.output());
            assertTrue(child.output().contains("Stopped."), child.output());
        }
    }

    @Test
    void aSecondSignalExitsAtOnceAndTheExitTimeoutBoundsTheWait(@TempDir final Path dir) throws Exception
    {
        final Path repository = repository(dir, 60_000_000);
        final int httpPort = Ports.free();
        final int metricsPort = Ports.free();
        try (ChildProcess child = serve(repository, httpPort, -1, metricsPort, "30");
             HttpClient http = HttpClient.newHttpClient())
        {
            // Nine requests: a batch of at most eight runs for 60 s, the ninth waits behind it, as the metrics show.
            final List<CompletableFuture<HttpResponse<String>>> stuck = new ArrayList<>();
            for (int i = 0; i < 9; i++)
            {
                stuck.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
                    + "/v2/models/slow/infer")).POST(HttpRequest.BodyPublishers.ofString(BODY.formatted(i))).build(),
                    HttpResponse.BodyHandlers.ofString()));
            }
            awaitQueued(http, metricsPort, 1);
            terminate(child);
            child.awaitLine("Received SIGTERM: stopping gracefully", 30);
            terminate(child);
            assertEquals(128 + 15, child.awaitExit(20), child.output());
            assertTrue(child.output().contains("Received SIGTERM again: exiting at once"), child.output());
            stuck.forEach(call -> call.cancel(true));
        }
        final int otherPort = Ports.free();
        final int otherMetrics = Ports.free();
        try (ChildProcess child = serve(repository, otherPort, -1, otherMetrics, "1");
             HttpClient http = HttpClient.newHttpClient())
        {
            for (int i = 0; i < 9; i++)
            {
                http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + otherPort
                    + "/v2/models/slow/infer")).POST(HttpRequest.BodyPublishers.ofString(BODY.formatted(i))).build(),
                    HttpResponse.BodyHandlers.ofString());
            }
            awaitQueued(http, otherMetrics, 1);
            terminate(child);
            assertEquals(1, child.awaitExit(30), child.output());
            assertTrue(child.output().contains("Exit timeout of 1 s reached with requests still in flight"),
                child.output());
        }
    }
}
