package io.ingot.perf;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.server.ServerFrontends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP and gRPC clients against Ingot's own frontends serving the identity model. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NetworkTargetsTest
{
    private static InferenceCore core;
    private static ServerFrontends frontends;

    @BeforeAll
    static void serve() throws Exception
    {
        core = InferenceCore.open(CoreOptions.builder().model(TestModels.identity()).build());
        frontends = ServerFrontends.start(core, "127.0.0.1", 0, 0, -1, 1L << 26);
    }

    @AfterAll
    static void stop()
    {
        frontends.close();
        core.close();
    }

    private static void exercise(final LoadTarget target) throws Exception
    {
        final LoadTarget.ModelInfo info = target.modelInfo();
        assertEquals(8, info.maxBatchSize());
        assertEquals(List.of("OUTPUT0"), info.outputs());
        final RequestInputs inputs = RequestInputs.resolve("identity", "", info.maxBatchSize(), info.inputs(),
            info.outputs(), 2, Map.of("INPUT0", new long[] {16}), Map.of(), 3);
        target.prepare(inputs);
        final ServerCounters before = target.counters();
        assertNull(target.newClient().call());
        final CompletableFuture<String> async = new CompletableFuture<>();
        target.newClient().send(async::complete);
        assertNull(async.get(60, TimeUnit.SECONDS));
        final ServerCounters delta = target.counters().minus(before);
        // Two requests of two rows each.
        assertEquals(4, delta.inferenceCount());
        assertEquals(2, delta.successCount());
    }

    @Test
    void httpClientInfersAndReadsStatistics() throws Exception
    {
        try (HttpTarget target = new HttpTarget("127.0.0.1:" + frontends.httpPort(), "identity", ""))
        {
            exercise(target);
        }
    }

    @Test
    void grpcClientInfersAndReadsStatistics() throws Exception
    {
        try (GrpcTarget target = new GrpcTarget("127.0.0.1:" + frontends.grpcPort(), "identity", ""))
        {
            exercise(target);
        }
    }

    @Test
    void unknownModelFailsOverBothProtocols()
    {
        final List<Supplier<LoadTarget>> targets = List.of(
            () -> new HttpTarget("127.0.0.1:" + frontends.httpPort(), "nope", ""),
            () -> new GrpcTarget("127.0.0.1:" + frontends.grpcPort(), "nope", ""));
        for (final Supplier<LoadTarget> supplier : targets)
        {
            try (LoadTarget target = supplier.get())
            {
                final PerfException error = assertThrows(PerfException.class, target::modelInfo);
                assertEquals(PerfException.FAILURE, error.exitCode());
                assertTrue(error.getMessage().contains("nope"), error.getMessage());
            }
        }
    }

    @Test
    void perfMeasuresOverGrpcInAnOpenLoop(@TempDir final Path dir) throws Exception
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Path json = dir.resolve("grpc.json");
        final int code = new CommandLine(new PerfCommand(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))).execute("-m", "identity",
            "-i", "grpc", "-u", "127.0.0.1:" + frontends.grpcPort(), "--shape", "INPUT0:4", "--request-rate-range",
            "100", "--request-distribution", "poisson", "-p", "200", "--warmup-interval", "0", "-s", "1000", "-r",
            "3", "--json", json.toString());
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        final ReportFiles.Series series = ReportFiles.readSeries(json, "p50");
        assertEquals(1, series.points().size());
        assertTrue(series.points().get(0)[0] > 0);
    }
}
