package io.ingot.perf;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcOutput;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.server.ipc.IpcServer;
import io.ingot.server.ipc.IpcServerOptions;
import io.ingot.server.ipc.IpcServerStatistics;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ingot perf}'s IPC target against a real IPC server (and HTTP frontend) over a core in the test JVM. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IpcTargetTest
{
    private static final int SLOTS = 3;

    private static InferenceCore core;
    private static IpcServer ipc;
    private static ServerFrontends http;
    private static InProcessTarget identity;
    private static InProcessTarget addSub;

    @BeforeAll
    static void serve() throws Exception
    {
        core = InferenceCore.open(CoreOptions.builder().model(TestModels.identity()).model(TestModels.addSub())
            .build());
        ipc = IpcServer.start(core, "perf-test-" + ProcessHandle.current().pid() + "-"
            + Long.toHexString(System.nanoTime()), IpcServerOptions.builder().maxClients(SLOTS).build());
        http = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, -1, -1));
        identity = new InProcessTarget(core, "test models", "identity", "");
        addSub = new InProcessTarget(core, "test models", "add_sub", "");
    }

    /** Every earlier test's connections closed: wait until the server has freed their slots again. */
    @BeforeEach
    void slotsAreFree() throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            final IpcServerStatistics stats = ipc.statistics();
            if (stats.activeClients() == 0 && stats.clientsReclaimed() == stats.clientsActivated())
            {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the IPC server did not free the slots of earlier tests: " + ipc.statistics());
    }

    @AfterAll
    static void stop()
    {
        identity.close();
        addSub.close();
        http.close();
        ipc.close();
        core.close();
    }

    private static RequestInputs inputs(final InProcessTarget metadata, final String model,
        final Map<String, long[]> shapes)
    {
        final ModelSource.ModelInfo info = metadata.modelInfo();
        return RequestInputs.resolve(model, "", info.maxBatchSize(), info.inputs(), info.outputs(), 2, shapes,
            Map.of(), 7);
    }

    private static float[] floats(final byte[] bytes)
    {
        return MemorySegment.ofArray(bytes).toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
    }

    private static float[] floats(final IpcOutput output)
    {
        return output.segment().toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
    }

    @Test
    void identityComesBackUnchanged() throws Exception
    {
        try (IpcTarget target = new IpcTarget(ipc.name(), "identity", "", identity))
        {
            final RequestInputs inputs = inputs(identity, "identity", Map.of("INPUT0", new long[] {16}));
            target.prepare(inputs);
            final List<long[]> shapes = new ArrayList<>();
            final List<float[]> values = new ArrayList<>();
            try (IpcTarget.Client client = target.client())
            {
                assertNull(client.call(response ->
                {
                    final IpcOutput output = response.output("OUTPUT0");
                    shapes.add(output.shape());
                    values.add(floats(output));
                }));
            }
            assertEquals(1, shapes.size());
            assertArrayEquals(new long[] {2, 16}, shapes.get(0));
            assertArrayEquals(floats(inputs.inputs().get(0).data()), values.get(0));
        }
    }

    @Test
    void addSubReturnsSumAndDifference() throws Exception
    {
        try (IpcTarget target = new IpcTarget(ipc.name(), "add_sub", "", addSub))
        {
            final RequestInputs inputs = inputs(addSub, "add_sub", Map.of());
            target.prepare(inputs);
            final float[] a = floats(inputs.inputs().get(0).data());
            final float[] b = floats(inputs.inputs().get(1).data());
            final float[][] outputs = new float[2][];
            try (IpcTarget.Client client = target.client())
            {
                assertNull(client.call(response ->
                {
                    outputs[0] = floats(response.output("OUTPUT0"));
                    outputs[1] = floats(response.output("OUTPUT1"));
                }));
            }
            assertEquals(32, a.length);
            for (int i = 0; i < a.length; i++)
            {
                assertEquals(a[i] + b[i], outputs[0][i], 1e-6f, "OUTPUT0[" + i + "]");
                assertEquals(a[i] - b[i], outputs[1][i], 1e-6f, "OUTPUT1[" + i + "]");
            }
        }
    }

    @Test
    void clientsSendAsynchronouslyReuseConnectionsAndCountOnTheServer() throws Exception
    {
        try (IpcTarget target = new IpcTarget(ipc.name(), "identity", "", identity))
        {
            target.prepare(inputs(identity, "identity", Map.of("INPUT0", new long[] {4})));
            assertEquals(SLOTS, target.maxClients());
            final long activated = ipc.statistics().clientsActivated();
            final ServerCounters before = target.counters();
            for (int i = 0; i < 3; i++)
            {
                try (LoadClient client = target.newClient())
                {
                    final CompletableFuture<String> outcome = new CompletableFuture<>();
                    client.send(outcome::complete);
                    assertNull(outcome.get(60, TimeUnit.SECONDS));
                    assertNull(client.call());
                }
            }
            // One connection served all three clients in turn: no new client slot was taken.
            assertEquals(activated, ipc.statistics().clientsActivated());
            final ServerCounters delta = target.counters().minus(before);
            assertEquals(6, delta.successCount());
            assertEquals(12, delta.inferenceCount());
        }
    }

    @Test
    void unknownModelOverIpcFailsNamingIt()
    {
        try (IpcTarget target = new IpcTarget(ipc.name(), "nope", "", identity))
        {
            final PerfException error = assertThrows(PerfException.class, () -> target.prepare(inputs(identity,
                "identity", Map.of("INPUT0", new long[] {4}))));
            assertEquals(PerfException.FAILURE, error.exitCode());
            assertTrue(error.getMessage().contains("'nope'") && error.getMessage().contains("INVALID_ARG"),
                error.getMessage());
        }
    }

    @Test
    void unknownOrMalformedIpcNamesAreReported()
    {
        final PerfException missing = assertThrows(PerfException.class,
            () -> new IpcTarget("perf-test-no-such-server", "identity", "", identity));
        assertEquals(PerfException.FAILURE, missing.exitCode());
        assertTrue(missing.getMessage().contains("'perf-test-no-such-server'")
            && missing.getMessage().contains("ingot serve --ipc"), missing.getMessage());
        final PerfException malformed = assertThrows(PerfException.class,
            () -> new IpcTarget("bad/name", "identity", "", identity));
        assertEquals(PerfException.USAGE, malformed.exitCode());
        assertTrue(malformed.getMessage().contains("bad/name"), malformed.getMessage());
    }

    @Test
    void slotsTakenByOtherClientsFailTheNextConnection() throws Exception
    {
        try (IpcTarget target = new IpcTarget(ipc.name(), "identity", "", identity))
        {
            target.prepare(inputs(identity, "identity", Map.of("INPUT0", new long[] {4})));
            final List<IpcClient> others = new ArrayList<>();
            try
            {
                // The target holds one slot; other processes' clients hold the rest.
                for (int i = 1; i < SLOTS; i++)
                {
                    others.add(IpcClient.connect(ipc.name()));
                }
                try (LoadClient pooled = target.newClient())
                {
                    assertNull(pooled.call());
                    final PerfException error = assertThrows(PerfException.class, target::newClient);
                    assertEquals(PerfException.FAILURE, error.exitCode());
                    assertTrue(error.getMessage().contains("client slots"), error.getMessage());
                }
            }
            finally
            {
                others.forEach(IpcClient::close);
            }
        }
    }

    private int perf(final ByteArrayOutputStream out, final ByteArrayOutputStream err, final String... args)
    {
        return new CommandLine(new PerfCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8))).execute(args);
    }

    @Test
    void perfMeasuresOverIpcWithMetadataAndStatisticsFromHttp(@TempDir final Path dir) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final Path json = dir.resolve("ipc.json");
        final int code = perf(out, err, "-i", "ipc", "-u", ipc.name(), "--metadata-url", "127.0.0.1:"
            + http.httpPort(), "-m", "identity", "--shape", "INPUT0:4", "--concurrency-range", "1:2", "-p", "200",
            "--warmup-interval", "0", "-s", "1000", "-r", "3", "--json", json.toString());
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        final JsonObject report = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("IPC " + ipc.name(), report.get("target").getAsString());
        assertEquals(2, report.getAsJsonArray("results").size());
        final JsonObject first = report.getAsJsonArray("results").get(0).getAsJsonObject();
        assertTrue(first.get("requests").getAsLong() > 0);
        // The server's statistics arrive over HTTP: one client never batches two requests together.
        assertEquals(1.0, first.get("average_batch_size").getAsDouble(), 1e-9);
    }

    @Test
    void concurrencyAboveTheClientSlotsIsAUsageError()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = perf(new ByteArrayOutputStream(), err, "-i", "ipc", "-u", ipc.name(), "--metadata-url",
            "127.0.0.1:" + http.httpPort(), "-m", "identity", "--shape", "INPUT0:4", "--concurrency-range", "1:8:x2");
        assertEquals(PerfException.USAGE, code);
        final String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("--concurrency-range goes up to 8") && message.contains("at most " + SLOTS),
            message);
    }

    @Test
    void ipcNeedsAName()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(PerfException.USAGE, perf(new ByteArrayOutputStream(), err, "-i", "ipc", "-m", "identity"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-i ipc needs -u NAME"));
        final ByteArrayOutputStream misplaced = new ByteArrayOutputStream();
        assertEquals(PerfException.USAGE, perf(new ByteArrayOutputStream(), misplaced, "-i", "grpc",
            "--metadata-url", "localhost:8000", "-m", "identity"));
        assertTrue(misplaced.toString(StandardCharsets.UTF_8).contains("--metadata-url goes with -i ipc"));
    }

    @Test
    void responseOutputsAreReleasedAfterEachCall() throws Exception
    {
        final long released = ipc.statistics().releasesAccepted();
        try (IpcTarget target = new IpcTarget(ipc.name(), "identity", "", identity))
        {
            // The check request of prepare() releases its output too: six in all.
            target.prepare(inputs(identity, "identity", Map.of("INPUT0", new long[] {1024})));
            final IpcResponse[] kept = new IpcResponse[1];
            try (IpcTarget.Client client = target.client())
            {
                for (int i = 0; i < 5; i++)
                {
                    assertNull(client.call(response -> kept[0] = response));
                }
            }
            // Closed after the reader saw it: its outputs may no longer be read.
            assertThrows(IllegalStateException.class, () -> kept[0].output("OUTPUT0"));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ipc.statistics().releasesAccepted() < released + 6 && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertEquals(released + 6, ipc.statistics().releasesAccepted());
        }
    }
}
