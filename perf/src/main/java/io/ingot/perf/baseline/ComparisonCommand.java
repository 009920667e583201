package io.ingot.perf.baseline;

import io.ingot.perf.Arrivals;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.LatencyPlot;
import io.ingot.perf.LevelResult;
import io.ingot.perf.LoadProfiler;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.PerfException;
import io.ingot.perf.ReportFiles;
import io.ingot.perf.RequestInputs;
import io.ingot.perf.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The options and the run loop every {@code ingot perf comparison} subcommand shares (concurrency levels, windows,
 * stability, output files) and the report they write: a subclass supplies the configurations to measure at each
 * level. Subcommand instances are made by picocli, one per command line, and run on its thread: not thread-safe.
 */
abstract class ComparisonCommand implements Callable<Integer>
{
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--concurrency", split = ",", defaultValue = "1,2,4,8,16",
        description = "Concurrency levels (default ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = {"-p", "--measurement-interval"}, defaultValue = "3000",
        description = "Window in ms (default ${DEFAULT-VALUE}).")
    long windowMs;

    @Option(names = "--warmup-interval", defaultValue = "2000",
        description = "Warm-up per level in ms (default ${DEFAULT-VALUE}).")
    long warmupMs;

    @Option(names = {"-s", "--stability-percentage"}, defaultValue = "10",
        description = "Stability percentage (default ${DEFAULT-VALUE}).")
    double stabilityPct;

    @Option(names = {"-r", "--max-trials"}, defaultValue = "6",
        description = "Windows per level at most (default ${DEFAULT-VALUE}).")
    int maxTrials;

    @Option(names = "--out", required = true, description = "Directory for the JSON reports, plot and table.")
    Path out;

    @Option(names = "--instances", defaultValue = "2", description = "Ingot instances (default ${DEFAULT-VALUE}).")
    int instances;

    @Option(names = "--repeats", defaultValue = "1",
        description = "Rounds of the three configurations per level, interleaved; each configuration reports its"
            + " median round by throughput (default ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--max-batch", defaultValue = "16",
        description = "Ingot's max_batch_size (default ${DEFAULT-VALUE}).")
    int maxBatch;

    @Option(names = "--queue-delay-us", defaultValue = "0",
        description = "Ingot's max_queue_delay_microseconds (default ${DEFAULT-VALUE}).")
    long queueDelayUs;

    LoadProfiler.Settings settings()
    {
        return new LoadProfiler.Settings(warmupMs, windowMs, stabilityPct, maxTrials, "avg",
            new Arrivals.Constant(), 16, 0);
    }

    String command()
    {
        return launcher() + " " + Comparison.class.getName() + " "
            + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }

    /** @return how the comparison's JVM is started, up to the main class */
    String launcher()
    {
        return "java -cp benchmarks/target/benchmarks.jar";
    }

    /** Measures one level with a closed loop of {@code clients} and reports it as {@code level}. */
    LevelResult measure(final LoadTarget target, final RequestInputs inputs, final int clients,
        final double level)
    {
        final LoadProfiler profiler = new LoadProfiler(target, LoadProfiler.Mode.CONCURRENCY, inputs.batchSize(),
            settings(), (index, phase) ->
            {
            });
        final List<LevelResult> results = profiler.run(List.of((double)clients), result ->
        {
        });
        if (results.isEmpty())
        {
            throw PerfException.failure("no result at concurrency " + clients);
        }
        final LevelResult r = results.get(0);
        return new LevelResult(level, r.requests(), r.errors(), r.delayed(), r.durationSeconds(),
            r.requestsPerSecond(), r.inferencesPerSecond(), r.latencyUs(), r.averageBatchSize(),
            r.serverRequestUs(), r.serverQueueUs(), r.serverComputeUs(), r.windows(), r.stable(), r.complete(),
            r.overThreshold());
    }

    RunReport report(final String label, final String target, final String model, final int batchSize,
        final long requestBytes, final List<LevelResult> results)
    {
        return new RunReport(label, command(), target, model, "", batchSize, requestBytes, "concurrency", "-",
            windowMs, stabilityPct, 0, RunReport.Machine.current(),
            OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString(), results, false, null);
    }

    void writeAll(final String title, final Map<String, RunReport> reports, final String table)
    {
        try
        {
            Files.createDirectories(out);
            final List<ReportFiles.Series> series = new ArrayList<>();
            for (final Map.Entry<String, RunReport> entry : reports.entrySet())
            {
                final Path json = out.resolve(entry.getKey() + ".json");
                ReportFiles.writeJson(entry.getValue(), json);
                series.add(ReportFiles.readSeries(json, "p99"));
            }
            LatencyPlot.write(out.resolve("latency-throughput-p99.png"), title + " (p99, labels: concurrency)",
                "p99", series, false);
            Files.writeString(out.resolve("comparison.md"), table);
            System.out.println(table);
            System.out.println("wrote " + out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the comparison to " + out, ex);
        }
    }

    /**
     * What {@link #compare} measured: Ingot, the direct baseline unbatched and on pre-formed batches (of the sizes
     * in {@code idealBatches}), one result per level.
     */
    record Series(List<LevelResult> ingot, List<LevelResult> unbatched, List<LevelResult> batched,
        List<Integer> idealBatches, long requestBytes)
    {
    }

    /**
     * Measures, level by level: Ingot with batch-1 requests; the direct baseline with one run per request from N
     * threads; the direct baseline on batches of the average size Ingot formed at that level, from as many
     * threads as Ingot has instances. With {@code --repeats R} the three run R times in turn at each level and
     * each reports its median round, which keeps a burst of load on the shared machine from deciding a ratio.
     *
     * @param model  the model's name
     * @param server Ingot, in process
     * @param direct the framework called directly
     * @param label  the baseline's name in the progress lines
     * @param shapes input shapes without the batch dimension, where the model leaves them open
     * @param values constant input values, by input name
     * @return the three series
     */
    Series compare(final String model, final InProcessTarget server, final LoadTarget direct, final String label,
        final Map<String, long[]> shapes, final Map<String, String> values)
    {
        final List<LevelResult> ingot = new ArrayList<>();
        final List<LevelResult> unbatched = new ArrayList<>();
        final List<LevelResult> batched = new ArrayList<>();
        final List<Integer> sizes = new ArrayList<>();
        final LoadTarget.ModelInfo serverInfo = server.modelInfo();
        final RequestInputs serverInputs = RequestInputs.resolve(model, "", serverInfo.maxBatchSize(),
            serverInfo.inputs(), serverInfo.outputs(), 1, shapes, values, 1);
        server.prepare(serverInputs);
        final LoadTarget.ModelInfo directInfo = direct.modelInfo();
        final RequestInputs one = RequestInputs.resolve(model, "", directInfo.maxBatchSize(),
            directInfo.inputs(), directInfo.outputs(), 1, shapes, values, 1);
        for (final int n : concurrency)
        {
            final List<LevelResult> servedRounds = new ArrayList<>();
            final List<LevelResult> plainRounds = new ArrayList<>();
            final List<LevelResult> idealRounds = new ArrayList<>();
            int size = 0;
            for (int round = 0; round < Math.max(1, repeats); round++)
            {
                final LevelResult served = measure(server, serverInputs, n, n);
                servedRounds.add(served);
                print("Ingot dynamic batching", served);

                direct.prepare(one);
                final LevelResult plain = measure(direct, one, n, n);
                plainRounds.add(plain);
                print(label + " direct, unbatched", plain);

                // The ideal's batch is the one Ingot formed in the first round, so that every round compares alike.
                size = size == 0 ? Math.max(1, (int)Math.round(served.averageBatchSize())) : size;
                final RequestInputs formed = RequestInputs.resolve(model, "", directInfo.maxBatchSize(),
                    directInfo.inputs(), directInfo.outputs(), size, shapes, values, 1);
                direct.prepare(formed);
                final LevelResult ideal = measure(direct, formed, Math.min(instances, n), n);
                idealRounds.add(ideal);
                print(label + " direct, pre-formed batches of " + size, ideal);
            }
            ingot.add(median(servedRounds));
            unbatched.add(median(plainRounds));
            batched.add(median(idealRounds));
            sizes.add(size);
        }
        return new Series(ingot, unbatched, batched, sizes, serverInputs.requestBytes());
    }

    /** @return the round with the median throughput (the lower middle one of an even count) */
    static LevelResult median(final List<LevelResult> rounds)
    {
        final List<LevelResult> sorted = new ArrayList<>(rounds);
        sorted.sort(java.util.Comparator.comparingDouble(LevelResult::inferencesPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * @param prefix  the reports' file name prefix
     * @param shortName the baseline's short name in file names ({@code ort}, {@code tf})
     * @param model   the model
     * @param ingot   Ingot's label
     * @param direct  the baseline's label
     * @param series  what {@link #compare} measured
     * @return the three reports, by file name
     */
    Map<String, RunReport> reports(final String prefix, final String shortName, final String model,
        final String ingot, final String direct, final Series series)
    {
        final Map<String, RunReport> reports = new LinkedHashMap<>();
        reports.put(prefix + "-ingot", report(ingot + " (" + instances + " instances)", "in-process core", model,
            1, series.requestBytes(), series.ingot()));
        reports.put(prefix + "-" + shortName + "-unbatched", report(direct + ", one run per request", direct,
            model, 1, series.requestBytes(), series.unbatched()));
        reports.put(prefix + "-" + shortName + "-batched", report(direct + ", pre-formed batches (" + instances
            + " threads)", direct, model, 1, series.requestBytes(), series.batched()));
        return reports;
    }

    /**
     * @param heading   the lines above the table
     * @param label     the baseline's short name in the column heads ({@code ORT}, {@code TF})
     * @param series    what {@link #compare} measured
     * @return the Markdown table of absolute figures and ratios
     */
    String table(final String heading, final String label, final Series series)
    {
        final StringBuilder md = new StringBuilder();
        md.append("Command: `").append(command()).append("`\n\n").append(heading).append("\n\n");
        md.append("| N | Ingot infer/s | Ingot batch | Ingot p50 ms | Ingot p99 ms | " + label
            + " unbatched infer/s | " + label + " unbatched p99 ms | " + label
            + " batched infer/s (batch) | Ingot / " + label + " batched | Ingot / " + label
            + " unbatched | Ingot p99 / unbatched p99 |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < series.ingot().size(); i++)
        {
            final LevelResult a = series.ingot().get(i);
            final LevelResult u = series.unbatched().get(i);
            final LevelResult b = series.batched().get(i);
            md.append("| ").append((long)a.level()).append(" | ").append(f(a.inferencesPerSecond()))
                .append(" | ").append(ratio(a.averageBatchSize())).append(" | ")
                .append(ms(a.latencyUs().p50())).append(" | ").append(ms(a.latencyUs().p99()))
                .append(" | ").append(f(u.inferencesPerSecond())).append(" | ")
                .append(ms(u.latencyUs().p99())).append(" | ").append(f(b.inferencesPerSecond()))
                .append(" (").append(series.idealBatches().get(i)).append(") | ")
                .append(ratio(a.inferencesPerSecond() / b.inferencesPerSecond())).append(" | ")
                .append(ratio(a.inferencesPerSecond() / u.inferencesPerSecond())).append(" | ")
                .append(ratio(a.latencyUs().p99() / u.latencyUs().p99())).append(" |\n");
        }
        return md.toString();
    }

    /**
     * @param micros a latency in microseconds
     * @return it in milliseconds: three decimals below 1 ms (microsecond-scale models), one above
     */
    static String ms(final double micros)
    {
        if (!Double.isFinite(micros))
        {
            return "-";
        }
        return String.format(Locale.ROOT, micros < 1000 ? "%.3f" : "%.1f", micros / 1000);
    }

    static String f(final double value)
    {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.1f", value) : "-";
    }

    static String ratio(final double value)
    {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.2f", value) : "-";
    }

    /**
     * Prints one level's result on standard output, one line per configuration, as the run goes.
     *
     * @param what the configuration
     * @param r    its result at one level
     */
    static void print(final String what, final LevelResult r)
    {
        System.out.printf(Locale.ROOT, "%-45s N=%-4d %10.1f infer/s  p50 %8.2f ms  p99 %8.2f ms  batch %5.2f%s%n",
            what, (long)r.level(), r.inferencesPerSecond(), r.latencyUs().p50() / 1000, r.latencyUs().p99() / 1000,
            r.averageBatchSize(), r.stable() ? "" : "  (unstable)");
    }
}
