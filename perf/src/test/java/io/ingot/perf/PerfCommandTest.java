package io.ingot.perf;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PerfCommandTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        final PerfCommand command = new PerfCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CommandLine(command).execute(args);
    }

    private String errors()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static Path identityRepository(final Path dir) throws Exception
    {
        final Path model = Files.createDirectories(dir.resolve("identity").resolve("1"));
        Files.writeString(model.getParent().resolve("config.pbtxt"), """
            name: "identity"
            backend: "identity"
            max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
            dynamic_batching { }
            """);
        return dir;
    }

    @Test
    void measuresAnInProcessModelAndWritesEveryReport(@TempDir final Path dir) throws Exception
    {
        final Path repository = identityRepository(dir.resolve("models"));
        final Path json = dir.resolve("out/run.json");
        final Path csv = dir.resolve("out/run.csv");
        final Path png = dir.resolve("out/run.png");
        final int code = run("-m", "identity", "--model-repository", repository.toString(), "--concurrency-range",
            "1:2", "-p", "150", "--warmup-interval", "0", "-s", "1000", "-r", "3", "--json", json.toString(), "-f",
            csv.toString(), "--plot", png.toString(), "--label", "test run");
        assertEquals(0, code, errors());
        final JsonObject report = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("test run", report.get("label").getAsString());
        assertEquals(2, report.getAsJsonArray("results").size());
        final JsonObject first = report.getAsJsonArray("results").get(0).getAsJsonObject();
        assertEquals(1, first.get("level").getAsInt());
        assertTrue(first.get("requests").getAsLong() > 0);
        // Concurrency 1 never batches two requests together.
        assertEquals(1.0, first.get("average_batch_size").getAsDouble(), 1e-9);
        assertTrue(report.get("command").getAsString().startsWith("ingot perf -m identity"));
        assertTrue(report.get("command").getAsString().contains("--label 'test run'"), report.get("command")
            .getAsString());
        assertEquals(3, Files.readAllLines(csv).size());
        assertTrue(Files.size(png) > 1000);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Concurrency"));
    }

    @Test
    void aLatencyThresholdIsReportedPerLevelAndANegativeOneIsAUsageError(@TempDir final Path dir) throws Exception
    {
        final Path repository = identityRepository(dir.resolve("models"));
        final Path json = dir.resolve("slo.json");
        final int code = run("-m", "identity", "--model-repository", repository.toString(), "--request-rate-range",
            "50:100:x2", "-p", "150", "--warmup-interval", "0", "-s", "1000", "-r", "3", "--percentile", "p99",
            "-l", "10000", "--json", json.toString());
        assertEquals(0, code, errors());
        final JsonObject report = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals(10_000_000, report.get("latency_threshold_us").getAsDouble(), 1e-9);
        assertEquals(2, report.getAsJsonArray("results").size(), "an identity model stays far below 10 s");
        assertEquals(0, report.getAsJsonArray("results").get(0).getAsJsonObject().get("over_threshold").getAsLong());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("over %"));

        assertEquals(PerfException.USAGE, run("-m", "identity", "--model-repository", repository.toString(), "-l",
            "-5"));
        assertTrue(errors().contains("-l/--latency-threshold must be a number of milliseconds >= 0 (0: none), got"
            + " -5.0"), errors());
    }

    @Test
    void recordedCommandsQuoteWhatTheShellWouldSplit()
    {
        assertEquals("1:64:x2", PerfCommand.shellQuoted("1:64:x2"));
        assertEquals("'in-process, idle BLOCKING'", PerfCommand.shellQuoted("in-process, idle BLOCKING"));
        assertEquals("'it'\\''s'", PerfCommand.shellQuoted("it's"));
    }

    @Test
    void unknownModelFailsNamingTheModelsThere(@TempDir final Path dir) throws Exception
    {
        final int code = run("-m", "nope", "--model-repository", identityRepository(dir).toString());
        assertEquals(PerfException.FAILURE, code);
        assertTrue(errors().contains("'nope'") && errors().contains("identity"), errors());
    }

    @Test
    void badRangeIsAUsageError()
    {
        assertEquals(PerfException.USAGE, run("-m", "identity", "--concurrency-range", "8:2"));
        assertTrue(errors().contains("--concurrency-range") && errors().contains("'8:2'"), errors());
    }

    @Test
    void conflictingOptionsAreUsageErrors(@TempDir final Path dir) throws Exception
    {
        assertEquals(PerfException.USAGE, run("-m", "identity", "--concurrency-range", "1",
            "--request-rate-range", "10"));
        assertEquals(PerfException.USAGE, run("-m", "identity", "--model-repository", dir.toString(), "-u",
            "localhost:8000"));
        assertEquals(PerfException.USAGE, run("--concurrency-range", "1"));
        assertTrue(errors().contains("-m/--model-name"), errors());
    }

    @Test
    void unreachableEndpointFailsWithTheAddress() throws Exception
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final int code = run("-m", "identity", "-u", "127.0.0.1:" + port);
        assertEquals(PerfException.FAILURE, code);
        assertTrue(errors().contains("cannot reach") && errors().contains("127.0.0.1:" + port), errors());
    }

    @Test
    void unreachableGrpcEndpointFailsWithTheAddress() throws Exception
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort();
        }
        final int code = run("-m", "identity", "-i", "grpc", "-u", "127.0.0.1:" + port);
        assertEquals(PerfException.FAILURE, code);
        assertTrue(errors().contains("cannot reach the gRPC endpoint 127.0.0.1:" + port), errors());
    }

    @Test
    void plotSubcommandCombinesReports(@TempDir final Path dir) throws Exception
    {
        final Path a = dir.resolve("a.json");
        ReportFiles.writeJson(new RunReport("a", "c", "t", "m", "", 1, 4, "concurrency", "-", 100, 10, 0,
            RunReport.Machine.current(), "now", java.util.List.of(new LevelResult(1, 1, 0, 0, 1, 10, 10,
                new LevelResult.Latency(1, 2, 3, 4, 5, 6, 7, 3, 1), 1, 1, 1, 1, 3, true, true, 0)), false, null), a);
        final Path png = dir.resolve("both.png");
        assertEquals(0, new CommandLine(new PerfCommand()).execute("plot", "-o", png.toString(), a.toString(),
            a.toString()));
        assertTrue(Files.size(png) > 1000);
        assertEquals(PerfException.USAGE, new CommandLine(new PerfCommand()).execute("plot", "-o", png.toString(),
            dir.resolve("missing.json").toString()));
    }
}
