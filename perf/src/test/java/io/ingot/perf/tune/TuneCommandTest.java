package io.ingot.perf.tune;

import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ingot tune} end to end on the {@code cost} built-in model (2 ms + 0.25 ms per item): a short sweep writes
 * its CSV, plot, diff and configuration; a budget nothing meets writes no configuration. Measures time: isolated.
 */
@Isolated
class TuneCommandTest
{
    private static final String CONFIG = """
        # 2 ms + 0.25 ms per item.
        name: "cost"
        backend: "cost"
        max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        parameters { key: "base_us" value { string_value: "2000" } }
        parameters { key: "per_item_us" value { string_value: "250" } }
        instance_group [ { count: 1 kind: KIND_CPU } ]
        """;
    private static final byte[] PNG_MAGIC = {(byte)0x89, 'P', 'N', 'G'};

    private record Run(int code, String out, String err)
    {
    }

    private static Run tune(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        final int code = new CommandLine(new TuneCommand(stdout, stderr)).setOut(new PrintWriter(stdout, true))
            .setErr(new PrintWriter(stderr, true)).execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Path repository(final Path dir) throws Exception
    {
        final Path model = Files.createDirectories(dir.resolve("repo").resolve("cost"));
        Files.writeString(model.resolve("config.pbtxt"), CONFIG);
        Files.createDirectories(model.resolve("1"));
        return dir.resolve("repo");
    }

    @Test
    void shortSweepWritesCsvPlotAndADiffThatAppliesToTheModelsFile(@TempDir final Path dir) throws Exception
    {
        final Path repo = repository(dir);
        final Path output = dir.resolve("out");
        final Run run = tune("--model-repository", repo.toString(), "-m", "cost", "--latency-budget-ms", "200",
            "--concurrency", "4", "--instance-counts", "1,2", "--max-batch-sizes", "8", "--queue-delays-us",
            "2000", "--adaptive", "--max-candidates", "4",
            "--quick", "-p", "150", "--warmup-interval", "100", "-o", output.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("[1/4] instances 1, max_batch 8, no dynamic batching (current): "), run.out());
        assertTrue(run.out().contains("[4/4] "), run.out());
        assertTrue(run.out().contains("best: #"), run.out());

        final List<String> csv = Files.readAllLines(output.resolve("candidates.csv"));
        assertEquals(TuneReport.CSV_HEADER, csv.get(0));
        assertEquals(5, csv.size(), String.join("\n", csv));
        for (final String row : csv.subList(1, csv.size()))
        {
            final String[] cells = row.split(",", -1);
            assertTrue(Double.parseDouble(cells[7]) > 0, row);
            assertEquals("true", cells[15], "every candidate meets 200 ms: " + row);
            assertTrue(Double.parseDouble(cells[14]) <= 0.01, "p99 within the budget: at most 1 % over it: " + row);
        }
        assertTrue(csv.stream().anyMatch(row -> row.contains("ingot.batching=adaptive ingot.latency_slo_us=200000")),
            "the variant was measured");
        final byte[] png = Files.readAllBytes(output.resolve("pareto.png"));
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(png, 4));

        final String tuned = Files.readString(output.resolve("config.pbtxt"));
        final ModelConfig best = ModelConfigParser.parse(tuned, "tuned");
        assertEquals("2000", best.getParametersMap().get("base_us").getStringValue(), "the model's own parameters");
        assertTrue(tuned.startsWith("# 2 ms + 0.25 ms per item.\n"), "the file's comments are kept");
        final String diff = Files.readString(output.resolve("config.pbtxt.diff"));
        if (!diff.isEmpty())
        {
            assertTrue(diff.startsWith("--- a/cost/config.pbtxt\n+++ b/cost/config.pbtxt\n"), diff);
            final Patch<String> patch = UnifiedDiffUtils.parseUnifiedDiff(Arrays.asList(diff.split("\n")));
            assertEquals(tuned, String.join("\n", patch.applyTo(Arrays.asList(CONFIG.split("\n")))) + "\n");
        }
        assertEquals(CONFIG, Files.readString(repo.resolve("cost").resolve("config.pbtxt")),
            "the repository is not touched");
    }

    @Test
    void aBudgetNoCandidateMeetsWritesNoConfigurationAndSaysByHowMuch(@TempDir final Path dir) throws Exception
    {
        final Path output = dir.resolve("out");
        final Run run = tune("--model-repository", repository(dir).toString(), "-m", "cost",
            "--latency-budget-ms", "0.5", "--request-rate", "100", "--request-distribution", "bursty",
            "--burst-ratio", "3", "--burst-period-ms", "50", "--max-batch-sizes", "4", "--instance-counts", "1",
            "--queue-delays-us", "0", "-p", "150", "--warmup-interval", "50", "-o", output.toString());
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().matches("(?s)error: no candidate meets the p99 budget of 0.5 ms; the closest, #\\d .*"
            + " infer/s\\): its p99 [0-9.]+ ms misses the 0.5 ms budget by [0-9.]+ ms \\(\\d+%\\); no configuration"
            + " written\n"), run.err());
        assertTrue(run.out().contains("request rate 100.0/s (bursty ratio 3.0 period 50.0 ms)"), run.out());
        final List<String> csv = Files.readAllLines(output.resolve("candidates.csv"));
        assertTrue(csv.size() > 1 && csv.subList(1, csv.size()).stream()
            .allMatch(row -> Double.parseDouble(row.split(",", -1)[14]) == 1.0),
            "a 2 ms model misses a 0.5 ms budget with every request: " + csv);
        assertTrue(Files.exists(output.resolve("pareto.png")));
        assertFalse(Files.exists(output.resolve("config.pbtxt.diff")));
        assertFalse(Files.exists(output.resolve("config.pbtxt")));
    }

    @Test
    void badInputIsRefusedNamingTheOption(@TempDir final Path dir) throws Exception
    {
        final String repo = repository(dir).toString();
        assertEquals("error: --latency-budget-ms must be a number of milliseconds > 0, got 0.0\n",
            tune("--model-repository", repo, "-m", "cost", "--latency-budget-ms", "0").err());
        assertEquals("error: --latency-budget-ms must be a number of milliseconds > 0, got -3.0\n",
            tune("--model-repository", repo, "-m", "cost", "--latency-budget-ms", "-3").err());
        final Run ratio = tune("--model-repository", repo, "-m", "cost", "--latency-budget-ms", "10",
            "--request-rate", "50", "--request-distribution", "bursty", "--burst-ratio", "0");
        assertEquals(2, ratio.code());
        assertTrue(ratio.err().startsWith("error: --burst-ratio must be a number >= 1"), ratio.err());
        assertEquals("error: --variant must be KEY=VALUE[;KEY=VALUE...], got 'x' ('x' has no KEY=)\n",
            tune("--model-repository", repo, "-m", "cost", "--latency-budget-ms", "10", "--variant", "x").err());
        assertTrue(tune("--model-repository", repo, "-m", "none", "--latency-budget-ms", "10").err()
            .startsWith("error: --model-repository " + repo + " has no none/config.pbtxt"));
        final Path trace = Files.writeString(dir.resolve("t.csv"), "0\n3\n2\n");
        assertEquals("error: --request-trace " + trace + " line 3: time 2 ms is before the previous arrival's"
            + " (line 2); the times must be sorted\n", tune("--model-repository", repo, "-m", "cost",
                "--latency-budget-ms", "10", "--request-trace", trace.toString()).err());
    }

    @Test
    void helpWorks()
    {
        final Run run = tune("--help");
        assertEquals(0, run.code());
        assertTrue(run.out().contains("--latency-budget-ms"), run.out());
        assertTrue(run.out().contains("--burst-ratio"), run.out());
    }
}
