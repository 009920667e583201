package io.ingot.perf;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ingot perf transports} end to end on the bundled example repository, with tiny request counts. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PerfTransportsCommandTest
{
    /** The repository's examples, as the module's tests see them (Maven runs them in benchmarks/). */
    private static final Path EXAMPLES = Path.of("..", "examples", "models");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("transports"));
        all.addAll(List.of(args));
        return new CommandLine(new PerfCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8))).execute(all.toArray(String[]::new));
    }

    private String errors()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void comparesAllFourTransportsAtBothDefaultSizes(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("transports.json");
        final Path markdown = dir.resolve("transports.md");
        final int code = run("--model-repository", EXAMPLES.toString(), "-m", "identity", "--warmup", "2",
            "--rounds", "2", "--requests", "3", "--json", json.toString(), "--markdown", markdown.toString());
        assertEquals(0, code, errors());

        final JsonObject report = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("identity", report.get("model").getAsString());
        assertTrue(report.get("command").getAsString().startsWith("ingot perf transports --model-repository"));
        final JsonArray sizes = report.getAsJsonArray("sizes");
        assertEquals(2, sizes.size());
        assertEquals(1, sizes.get(0).getAsJsonObject().get("elements").getAsLong());
        assertEquals(4, sizes.get(0).getAsJsonObject().get("request_bytes").getAsLong());
        assertEquals(262_144, sizes.get(1).getAsJsonObject().get("elements").getAsLong());
        assertEquals(1L << 20, sizes.get(1).getAsJsonObject().get("request_bytes").getAsLong());
        for (final JsonElement size : sizes)
        {
            final JsonArray transports = size.getAsJsonObject().getAsJsonArray("transports");
            final List<String> names = new ArrayList<>();
            for (final JsonElement transport : transports)
            {
                final JsonObject row = transport.getAsJsonObject();
                names.add(row.get("transport").getAsString());
                // Two rounds of three requests each, the warm-up not counted.
                assertEquals(6, row.get("requests").getAsLong());
                final JsonObject latency = row.getAsJsonObject("latency_us");
                assertTrue(latency.get("p50").getAsDouble() > 0);
                assertTrue(latency.get("p99").getAsDouble() >= latency.get("p50").getAsDouble());
            }
            assertEquals(List.of("in-process", "IPC", "HTTP", "gRPC"), names);
            assertEquals(1.0, transports.get(0).getAsJsonObject().get("p50_ratio_to_in_process").getAsDouble(),
                1e-9);
            assertFalse(size.getAsJsonObject().get("grpc_p50_over_ipc_p50").isJsonNull());
        }

        final String table = Files.readString(markdown);
        for (final String name : List.of("| in-process |", "| IPC |", "| HTTP |", "| gRPC |", "1 element (4 B)",
            "262144 elements (1 MiB)", "IPC p50 / in-process p50 (goal ≤ 2)"))
        {
            assertTrue(table.contains(name), name + " missing from:\n" + table);
        }
        final String console = out.toString(StandardCharsets.UTF_8);
        assertTrue(console.contains("gRPC p50 is") && console.contains("p50/inproc"), console);
    }

    @Test
    void aModelWithFixedShapesCannotBeSized()
    {
        assertEquals(PerfException.USAGE, run("--model-repository", EXAMPLES.toString(), "-m", "add_sub"));
        assertTrue(errors().contains("'add_sub'") && errors().contains("--elements"), errors());
    }

    @Test
    void unknownModelFailsNamingIt()
    {
        assertEquals(PerfException.FAILURE, run("--model-repository", EXAMPLES.toString(), "-m", "nope"));
        assertTrue(errors().contains("'nope'"), errors());
    }

    @Test
    void badCountsAreUsageErrors(@TempDir final Path dir)
    {
        assertEquals(PerfException.USAGE, run("--model-repository", EXAMPLES.toString(), "--elements", "1,0"));
        assertTrue(errors().contains("--elements"), errors());
        assertEquals(PerfException.USAGE, run("--model-repository", EXAMPLES.toString(), "--rounds", "0"));
        assertTrue(errors().contains("--rounds"), errors());
        assertEquals(PerfException.USAGE, run("--model-repository", dir.resolve("missing").toString()));
        assertTrue(errors().contains("is not a directory"), errors());
    }
}
