package io.ingot.perf;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.ingot.api.IdleMode;
import io.ingot.perf.pipeline.PipelineComparison;
import io.ingot.perf.pipeline.PipelineComparison.Result;
import io.ingot.perf.pipeline.Pipelines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ingot perf baselines}: Ingot's in-process path against the batchers it must beat and the floors, in one run
 * (see {@code --help}; results in {@code docs/benchmarks/hot-path.md}). Exit codes as {@code ingot perf}: 0 measured,
 * 1 failure, 2 bad input.
 */
@Command(name = "baselines", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Compares Ingot's in-process path with the batchers it must beat, in one run.",
        "",
        "Pipelines, all serving the identity model (one FP32 row per request,",
        "batches up to --max-batch, no queue delay) with the same engine and the same",
        "copies: ingot (the core), djl-style (LinkedBlockingQueue, one worker: poll,",
        "drainTo, poll with the remaining delay), triton-style (a batcher thread on a",
        "mutex and condition variables handing batches to an instance thread), and",
        "direct (the engine on the caller's thread). At concurrency 1 the floors run",
        "too: a park/unpark and a spin round trip between two threads.",
        "",
        "At each concurrency level every pipeline serves that many closed-loop",
        "callers, in --rounds rounds whose order rotates; each window is warmed up",
        "first. Reported: requests/s, p50/p99/p99.9 latency (HdrHistogram), average",
        "batch size; at concurrency 1 the overhead over the direct call against the",
        "floors; at 16 and above Ingot's throughput against djl-style's.",
        "",
        "Options:"},
    footer = {"",
        "Example:",
        "  ingot perf baselines --concurrency 1,4,16,64 --idle-mode BLOCKING \\",
        "      --json baselines.json --markdown baselines.md --plot baselines.png",
        "",
        "Exit status: 0 measured, 1 failure, 2 bad input."})
public final class PerfBaselinesCommand implements Callable<Integer>
{
    /** Ingot's overhead over the direct call, at concurrency 1 with BLOCKING: at most this many park round trips. */
    static final double MAX_BLOCKING_OVERHEAD_IN_ROUND_TRIPS = 2;
    /** ... with SPINNING: at most this many microseconds. */
    static final double MAX_SPINNING_OVERHEAD_US = 3;
    /** ... p99 at most this many times p50. */
    static final double MAX_TAIL_RATIO = 10;
    /** Throughput at concurrency 16 and above: at least this many times djl-style's, at an equal or lower p99. */
    static final double MIN_THROUGHPUT_RATIO = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--concurrency", paramLabel = "N", split = ",",
        description = "Concurrency levels (default 1,2,4,8,16,32,64).")
    private List<Integer> concurrency = new ArrayList<>(List.of(1, 2, 4, 8, 16, 32, 64));

    @Option(names = "--pipelines", paramLabel = "NAME", split = ",",
        description = "Pipelines to compare (default ingot,djl-style,triton-style,direct).")
    private List<String> pipelines = new ArrayList<>(Pipelines.NAMES);

    @Option(names = "--elements", paramLabel = "N", defaultValue = "1",
        description = "FP32 elements per request (default ${DEFAULT-VALUE}).")
    private long elements;

    @Option(names = "--max-batch", paramLabel = "N", defaultValue = "8",
        description = "The most requests per batch (default ${DEFAULT-VALUE}, as Triton's L0_perf_nomodel).")
    private int maxBatch;

    @Option(names = "--idle-mode", paramLabel = "BLOCKING|BACKOFF|SPINNING", defaultValue = "BLOCKING",
        description = "How Ingot's threads and every caller wait (default ${DEFAULT-VALUE}).")
    private IdleMode idleMode;

    @Option(names = "--caller-awake-us", paramLabel = "US",
        description = {"How long every caller, in every pipeline, stays awake (spinning, then yielding) while it",
            "waits for its response before it parks (default: 20, ResponseFuture's; never parks under SPINNING).",
            "0 parks at once, as a caller blocked in CompletableFuture.get() does."})
    private Long callerAwakeUs;

    @Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "500",
        description = "Warm-up per pipeline, level and round (default ${DEFAULT-VALUE}).")
    private long warmupMs;

    @Option(names = "--window-ms", paramLabel = "MS", defaultValue = "1500",
        description = "Measured time per pipeline, level and round (default ${DEFAULT-VALUE}).")
    private long windowMs;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3",
        description = "Rounds per level, the pipelines' order rotating (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--json", paramLabel = "FILE.json", description = "Write every result as JSON.")
    private Path json;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "Write the tables as Markdown.")
    private Path markdown;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Plot p99 latency against throughput.")
    private Path plot;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            validate();
            final PipelineComparison comparison = new PipelineComparison(pipelines, elements, maxBatch, idleMode,
                warmupMs * 1_000_000L, windowMs * 1_000_000L, rounds,
                callerAwakeNanos());
            final Map<Integer, List<Result>> results = new LinkedHashMap<>();
            for (final int level : concurrency)
            {
                results.put(level, comparison.measure(level, phase -> err.print("\r" + phase + "          ")));
                err.println();
            }
            final String tables = tables(results);
            out.print(tables);
            out.flush();
            if (markdown != null)
            {
                write(markdown, tables);
            }
            if (json != null)
            {
                write(json, json(results));
            }
            if (plot != null)
            {
                plot(results);
            }
            return 0;
        }
        catch (final PerfException ex)
        {
            err.println("error: " + ex.getMessage());
            return ex.exitCode();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return PerfException.FAILURE;
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("error: " + ex.getMessage());
            return PerfException.FAILURE;
        }
    }

    private void validate()
    {
        for (final String name : pipelines)
        {
            if (!Pipelines.NAMES.contains(name))
            {
                throw PerfException.usage("unknown pipeline '" + name + "'; expected some of " + Pipelines.NAMES);
            }
        }
        for (final int level : concurrency)
        {
            if (level < 1 || level > 1024)
            {
                throw PerfException.usage("--concurrency levels must be 1-1024, got " + level);
            }
        }
        if (callerAwakeUs != null && (callerAwakeUs < 0 || callerAwakeUs > 1_000_000))
        {
            throw PerfException.usage("--caller-awake-us must be 0-1000000 (microseconds), got " + callerAwakeUs);
        }
        if (elements < 1 || maxBatch < 1 || rounds < 1 || windowMs < 1 || warmupMs < 0)
        {
            throw PerfException.usage("--elements, --max-batch, --rounds and --window-ms must be at least 1, and "
                + "--warmup-ms at least 0");
        }
    }

    /** @return how long callers stay awake before parking: the option, else the idle mode's default */
    private long callerAwakeNanos()
    {
        return callerAwakeUs == null ? Pipelines.callerSpinNanos(idleMode) : callerAwakeUs * 1_000L;
    }

    /** @return the callers' awake time in words */
    private String callerAwake()
    {
        final long nanos = callerAwakeNanos();
        return nanos == Long.MAX_VALUE ? "callers never park" : "callers awake " + nanos / 1_000 + " µs, then park";
    }

    private String tables(final Map<Integer, List<Result>> results)
    {
        final StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Pipelines: identity model, %d FP32 element(s) per request, max batch"
            + " %d, idle mode %s, %s, %d rounds of %d ms per level.%n%n", elements, maxBatch, idleMode,
            callerAwake(), rounds, windowMs));
        text.append("| concurrency | pipeline | requests/s | p50 µs | p99 µs | p99.9 µs | avg batch |\n");
        text.append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (final Map.Entry<Integer, List<Result>> level : results.entrySet())
        {
            for (final Result result : level.getValue())
            {
                text.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %.2f | %.2f |%n",
                    level.getKey(), result.pipeline(), result.throughput(), result.latencyUs(50),
                    result.latencyUs(99), result.latencyUs(99.9), result.averageBatch()));
            }
        }
        text.append(overhead(results.get(1)));
        text.append(throughputGoal(results));
        return text.toString();
    }

    private String overhead(final List<Result> level)
    {
        if (level == null)
        {
            return "";
        }
        final Result direct = find(level, "direct");
        final Result ingot = find(level, "ingot");
        final Result park = find(level, PipelineComparison.PARK_FLOOR);
        final Result spin = find(level, PipelineComparison.SPIN_FLOOR);
        final StringBuilder text = new StringBuilder("\nConcurrency 1, overhead over the direct call (µs):\n\n");
        text.append("| pipeline | p50 overhead | p99 overhead | p99 / p50 |\n|---|---:|---:|---:|\n");
        for (final Result result : level)
        {
            if (direct == null || result == direct || result.pipeline().endsWith("round-trip"))
            {
                continue;
            }
            final double p50 = result.latencyUs(50) - direct.latencyUs(50);
            final double p99 = result.latencyUs(99) - direct.latencyUs(99);
            text.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.1f |%n", result.pipeline(), p50, p99,
                p99 / p50));
        }
        if (park != null && spin != null)
        {
            text.append(String.format(Locale.ROOT, "%nFloors: park/unpark round trip p50 %.2f µs (p99 %.2f), spin "
                + "round trip p50 %.2f µs (p99 %.2f).%n", park.latencyUs(50), park.latencyUs(99), spin.latencyUs(50),
                spin.latencyUs(99)));
        }
        if (ingot != null && direct != null && park != null)
        {
            final double p50 = ingot.latencyUs(50) - direct.latencyUs(50);
            final double p99 = ingot.latencyUs(99) - direct.latencyUs(99);
            if (idleMode == IdleMode.SPINNING)
            {
                text.append(String.format(Locale.ROOT, "Goal (SPINNING): Ingot's p50 overhead %.2f µs <= %.0f µs: "
                    + "%s.%n", p50, MAX_SPINNING_OVERHEAD_US, verdict(p50 <= MAX_SPINNING_OVERHEAD_US)));
            }
            else
            {
                text.append(String.format(Locale.ROOT, "Goal (%s): Ingot's p50 overhead %.2f µs <= %.0f x the park "
                    + "round trip (%.2f µs): %s.%n", idleMode, p50, MAX_BLOCKING_OVERHEAD_IN_ROUND_TRIPS,
                    MAX_BLOCKING_OVERHEAD_IN_ROUND_TRIPS * park.latencyUs(50),
                    verdict(p50 <= MAX_BLOCKING_OVERHEAD_IN_ROUND_TRIPS * park.latencyUs(50))));
            }
            text.append(String.format(Locale.ROOT, "Goal: Ingot's p99 overhead %.2f µs <= %.0f x its p50: %s.%n",
                p99, MAX_TAIL_RATIO, verdict(p99 <= MAX_TAIL_RATIO * p50)));
        }
        return text.toString();
    }

    private String throughputGoal(final Map<Integer, List<Result>> results)
    {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<Integer, List<Result>> level : results.entrySet())
        {
            final Result ingot = find(level.getValue(), "ingot");
            final Result djl = find(level.getValue(), "djl-style");
            final Result triton = find(level.getValue(), "triton-style");
            if (level.getKey() < 16 || ingot == null || djl == null)
            {
                continue;
            }
            if (text.isEmpty())
            {
                text.append("\nThroughput at concurrency >= 16 (goal: >= ").append((int)MIN_THROUGHPUT_RATIO)
                    .append("x djl-style at an equal or lower p99):\n\n")
                    .append("| concurrency | ingot / djl-style | ingot / triton-style | ingot p99 / djl p99 | goal |\n")
                    .append("|---:|---:|---:|---:|---|\n");
            }
            final double ratio = ingot.throughput() / djl.throughput();
            final double tail = ingot.latencyUs(99) / djl.latencyUs(99);
            text.append(String.format(Locale.ROOT, "| %d | %.2f | %s | %.2f | %s |%n", level.getKey(), ratio,
                triton == null ? "-" : String.format(Locale.ROOT, "%.2f", ingot.throughput() / triton.throughput()),
                tail, verdict(ratio >= MIN_THROUGHPUT_RATIO && tail <= 1)));
        }
        return text.toString();
    }

    private static Result find(final List<Result> level, final String name)
    {
        for (final Result result : level)
        {
            if (result.pipeline().equals(name))
            {
                return result;
            }
        }
        return null;
    }

    private static String verdict(final boolean met)
    {
        return met ? "met" : "not met";
    }

    private String json(final Map<Integer, List<Result>> results)
    {
        final JsonObject root = new JsonObject();
        root.addProperty("elements", elements);
        root.addProperty("maxBatch", maxBatch);
        root.addProperty("idleMode", idleMode.name());
        root.addProperty("callerAwakeUs", callerAwakeNanos() == Long.MAX_VALUE ? -1 : callerAwakeNanos() / 1_000);
        root.addProperty("rounds", rounds);
        root.addProperty("windowMs", windowMs);
        root.addProperty("cores", Runtime.getRuntime().availableProcessors());
        final JsonArray rows = new JsonArray();
        for (final List<Result> level : results.values())
        {
            for (final Result result : level)
            {
                final JsonObject row = new JsonObject();
                row.addProperty("pipeline", result.pipeline());
                row.addProperty("concurrency", result.concurrency());
                row.addProperty("requests", result.requests());
                row.addProperty("seconds", result.seconds());
                row.addProperty("requestsPerSecond", result.throughput());
                row.addProperty("p50Us", result.latencyUs(50));
                row.addProperty("p90Us", result.latencyUs(90));
                row.addProperty("p99Us", result.latencyUs(99));
                row.addProperty("p999Us", result.latencyUs(99.9));
                row.addProperty("maxUs", result.latencies().getMaxValue() / 1000.0);
                row.addProperty("averageBatch", result.averageBatch());
                rows.add(row);
            }
        }
        root.add("results", rows);
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(root);
    }

    private void plot(final Map<Integer, List<Result>> results) throws IOException
    {
        final Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (final List<Result> level : results.values())
        {
            for (final Result result : level)
            {
                if (result.pipeline().endsWith("round-trip"))
                {
                    continue;
                }
                lines.computeIfAbsent(result.pipeline(), key -> new ArrayList<>())
                    .add(new double[] {result.throughput(), result.latencyUs(99), result.concurrency()});
            }
        }
        final List<ReportFiles.Series> series = new ArrayList<>();
        lines.forEach((name, points) -> series.add(new ReportFiles.Series(name, points)));
        LatencyPlot.write(plot, "identity model, " + elements + " element(s), " + idleMode
            + ": p99 latency vs throughput (labels: concurrency)", "p99", series, true, true);
    }

    private static void write(final Path file, final String text) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
