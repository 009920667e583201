package io.ingot.perf;

import io.ingot.api.IdleMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ingot perf}: measures a model's latency and throughput under load, as Triton's perf_analyzer does. See the
 * {@code --help} text for the modes; {@code BENCHMARKS.md} for results (the runs behind them:
 * {@code docs/benchmarks/}).
 *
 * <p>Exit codes: 0 when measured; 2 for bad input (range, option combination, shape); 1 when the endpoint cannot be
 * reached, the model is unknown or not ready, or every request fails. An interrupted run (Ctrl-C) still writes the
 * levels it measured, the partial one included, to every requested output.
 */
@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false,
    subcommands = {PerfPlotCommand.class, PerfTransportsCommand.class, PerfBaselinesCommand.class},
    description = {
        "Measure a model's latency and throughput under load (as perf_analyzer).",
        "",
        "Targets:",
        "  --model-repository DIR  a core in this process (perf_analyzer's C API mode)",
        "  -i http -u HOST:PORT    KServe v2 over HTTP with binary tensor data",
        "                          (default localhost:8000)",
        "  -i grpc -u HOST:PORT    KServe v2 over gRPC (default localhost:8001)",
        "  -i ipc -u NAME          shared memory, /dev/shm/ingot-NAME (ingot serve",
        "                          --ipc NAME); one client slot per request in",
        "                          flight. IPC has no metadata or statistics",
        "                          request: they are read from the same server's",
        "                          HTTP endpoint (--metadata-url, default",
        "                          localhost:8000, which ingot serve starts too)",
        "",
        "Load (levels START[:END[:STEP]], STEP = N, +N or xN):",
        "  --concurrency-range     closed loop: each level's number of requests is",
        "                          always in flight (send, wait, send again)",
        "  --request-rate-range    open loop: requests start at each level's rate per",
        "                          second, evenly spaced, Poisson or bursty",
        "                          (--request-distribution), or replaying a recorded",
        "                          trace (--request-trace); latency counts from the",
        "                          scheduled start (no coordinated omission)",
        "",
        "Each level: warm-up, then windows of --measurement-interval until the last",
        "three agree within --stability-percentage (throughput and latency), or",
        "--max-trials windows. Reported: throughput, p50/p90/p95/p99/p99.9 latency",
        "(HdrHistogram) and the server's average batch size (its statistics).",
        "Outputs: table, CSV (-f), JSON (--json), PNG plot (--plot); a progress bar",
        "on a terminal. Ctrl-C writes what was measured so far.",
        "",
        "Options:"},
    footer = {"",
        "Examples:",
        "  ingot perf --model-repository examples/models -m identity \\",
        "      --shape INPUT0:16 --concurrency-range 1:16:x2 --json identity.json",
        "  ingot perf -u localhost:8000 -m minilm --shape input_ids:128 \\",
        "      --shape attention_mask:128 --shape token_type_ids:128 \\",
        "      --input-value attention_mask=1 --input-value token_type_ids=0 \\",
        "      --request-rate-range 50:400:x2 --request-distribution poisson \\",
        "      -f minilm.csv --plot minilm.png",
        "  ingot perf --model-repository examples/models -m identity \\",
        "      --shape INPUT0:16 --request-rate-range 200:800:x2 \\",
        "      --request-distribution bursty --burst-ratio 4 --burst-period-ms 100",
        "  ingot perf -i ipc -u demo -m identity --shape INPUT0:16 \\",
        "      --concurrency-range 1:8:x2",
        "  ingot perf plot -o latency.png identity.json minilm.json",
        "  ingot perf transports --model-repository examples/models -m identity",
        "  ingot perf baselines --concurrency 1,16,64 --markdown baselines.md",
        "",
        "Exit status: 0 measured, 1 failure (endpoint, model, every request",
        "failed), 2 bad input (range, options, shape)."})
public final class PerfCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    // Checked in call() rather than by picocli, so that 'ingot perf plot' does not need it.
    @Option(names = {"-m", "--model-name"}, paramLabel = "MODEL", description = "Model to measure (required).")
    private String model;

    @Option(names = {"-x", "--model-version"}, paramLabel = "VERSION", defaultValue = "",
        description = "Model version (default: the server's choice).")
    private String version;

    @Option(names = "--model-repository", paramLabel = "DIR",
        description = "Run a core in this process on this repository (no network).")
    private Path repository;

    @Option(names = {"-i", "--protocol"}, paramLabel = "http|grpc|ipc",
        description = "Protocol of a server outside this process (default http).")
    private String protocol;

    @Option(names = {"-u", "--url"}, paramLabel = "HOST:PORT|NAME",
        description = "Server address (default localhost:8000 for http, localhost:8001 for grpc); for ipc the"
            + " IPC name (required).")
    private String url;

    @Option(names = "--metadata-url", paramLabel = "HOST:PORT",
        description = "-i ipc: the same server's HTTP endpoint, for the model's metadata and statistics (default"
            + " localhost:8000).")
    private String metadataUrl;

    @Option(names = "--concurrency-range", paramLabel = "START[:END[:STEP]]",
        description = "Closed-loop concurrency levels, e.g. 1:64:x2 (default 1).")
    private String concurrencyRange;

    @Option(names = "--request-rate-range", paramLabel = "START[:END[:STEP]]",
        description = "Open-loop request rates per second, e.g. 100:1600:x2.")
    private String requestRateRange;

    @Mixin
    private ArrivalOptions arrivalOptions = new ArrivalOptions();

    @Option(names = "--max-threads", paramLabel = "N", defaultValue = "16",
        description = "Open loop: the most requests in flight; beyond, requests start late and count as delayed"
            + " (default ${DEFAULT-VALUE}).")
    private int maxOutstanding;

    @Option(names = {"-b", "--batch-size"}, paramLabel = "N", defaultValue = "1",
        description = "Rows per request (default ${DEFAULT-VALUE}).")
    private int batchSize;

    @Mixin
    private InputOptions inputOptions = new InputOptions();

    @Option(names = {"-p", "--measurement-interval"}, paramLabel = "MS", defaultValue = "5000",
        description = "Length of a measurement window in milliseconds (default ${DEFAULT-VALUE}).")
    private long windowMs;

    @Option(names = "--warmup-interval", paramLabel = "MS", defaultValue = "2000",
        description = "Warm-up before each level's first window, in milliseconds (default ${DEFAULT-VALUE}).")
    private long warmupMs;

    @Option(names = {"-s", "--stability-percentage"}, paramLabel = "PCT", defaultValue = "10",
        description = "Allowed deviation of each of the last three windows from their mean (default"
            + " ${DEFAULT-VALUE}).")
    private double stabilityPct;

    @Option(names = {"-r", "--max-trials"}, paramLabel = "N", defaultValue = "10",
        description = "Windows per level before reporting it unstable (default ${DEFAULT-VALUE}).")
    private int maxTrials;

    @Option(names = "--percentile", paramLabel = "avg|p50|p90|p95|p99", defaultValue = "avg",
        description = "Latency statistic the stability check uses (default ${DEFAULT-VALUE}, as perf_analyzer).")
    private String percentile;

    @Option(names = {"-l", "--latency-threshold"}, paramLabel = "MS", defaultValue = "0",
        description = "A latency SLO: each level counts the requests over it (column 'over %%'), and the sweep stops"
            + " after the first level whose --percentile latency exceeds it, as perf_analyzer's (default 0: none).")
    private double latencyThresholdMs;

    @Option(names = "--idle-mode", paramLabel = "BLOCKING|BACKOFF|SPINNING", defaultValue = "BLOCKING",
        description = "In-process core: how its threads wait for work (default ${DEFAULT-VALUE}).")
    private IdleMode idleMode;

    @Option(names = "--label", paramLabel = "NAME",
        description = "Name of this configuration in reports and plots (default: target and model).")
    private String label;

    @Option(names = {"-f", "--latency-report-file"}, paramLabel = "FILE.csv", description = "Write a CSV report.")
    private Path csv;

    @Option(names = "--json", paramLabel = "FILE.json",
        description = "Write a JSON report (input of 'ingot perf plot').")
    private Path json;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Plot latency against throughput as a PNG.")
    private Path plot;

    @Option(names = "--plot-latency", paramLabel = "p50|p90|p95|p99|p99.9|avg", defaultValue = "p99",
        description = "Latency statistic of the plot (default ${DEFAULT-VALUE}).")
    private String plotStatistic;

    private final PrintStream out;
    private final PrintStream err;

    /** The command as {@code ingot} loads it: printing to the standard streams. */
    public PerfCommand()
    {
        this(System.out, System.err);
    }

    /**
     * @param out standard output
     * @param err standard error
     */
    public PerfCommand(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /** @return standard output, for the subcommands. */
    PrintStream out()
    {
        return out;
    }

    /** @return standard error, for the subcommands. */
    PrintStream err()
    {
        return err;
    }

    /**
     * Runs {@code perf} on its own, without the rest of {@code ingot}.
     *
     * @param args the arguments of {@code ingot perf}
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new PerfCommand()).execute(args));
    }

    @Override
    public Integer call()
    {
        try
        {
            return run();
        }
        catch (final PerfException ex)
        {
            err.println("error: " + ex.getMessage());
            return ex.exitCode();
        }
    }

    private int run()
    {
        final Plan plan = plan();
        final LoadTarget target = openTarget();
        try
        {
            checkClients(plan, target);
            return measure(plan, target);
        }
        finally
        {
            target.close();
        }
    }

    /** The levels and the mode, validated before anything is opened. */
    private record Plan(LoadProfiler.Mode mode, List<Double> levels, LoadProfiler.Settings settings)
    {
    }

    private Plan plan()
    {
        if (model == null || model.isBlank())
        {
            throw PerfException.usage("missing -m/--model-name: the model to measure");
        }
        if (concurrencyRange != null && requestRateRange != null)
        {
            throw PerfException.usage("give either --concurrency-range or --request-rate-range, not both");
        }
        if (windowMs < 100)
        {
            throw PerfException.usage("-p/--measurement-interval must be at least 100 ms, got " + windowMs);
        }
        if (warmupMs < 0)
        {
            throw PerfException.usage("--warmup-interval must be >= 0 ms, got " + warmupMs);
        }
        if (!(stabilityPct > 0))
        {
            throw PerfException.usage("-s/--stability-percentage must be > 0, got " + stabilityPct);
        }
        if (maxTrials < LoadProfiler.STABILITY_WINDOWS)
        {
            throw PerfException.usage("-r/--max-trials must be at least " + LoadProfiler.STABILITY_WINDOWS
                + " (the stability check needs three windows), got " + maxTrials);
        }
        if (maxOutstanding < 1)
        {
            throw PerfException.usage("--max-threads must be at least 1, got " + maxOutstanding);
        }
        if (!(latencyThresholdMs >= 0) || Double.isInfinite(latencyThresholdMs))
        {
            throw PerfException.usage("-l/--latency-threshold must be a number of milliseconds >= 0 (0: none), got "
                + latencyThresholdMs);
        }
        if (concurrencyRange != null && arrivalOptions.given())
        {
            throw PerfException.usage("--request-distribution, --burst-ratio, --burst-period-ms and --request-trace"
                + " shape open-loop arrivals; they go with --request-rate-range (or --request-trace alone), not"
                + " --concurrency-range");
        }
        final Arrivals arrivals = arrivalOptions.arrivals();
        // Validates the names early (throws a usage error for an unknown one).
        new LevelResult.Latency(0, 0, 0, 0, 0, 0, 0, 0, 0).get(plotStatistic);
        if (!"avg".equals(percentile))
        {
            new LevelResult.Latency(0, 0, 0, 0, 0, 0, 0, 0, 0).get(percentile);
        }
        final LoadProfiler.Mode mode = requestRateRange != null || arrivals instanceof Arrivals.Trace
            ? LoadProfiler.Mode.REQUEST_RATE : LoadProfiler.Mode.CONCURRENCY;
        final LoadRange range;
        if (mode == LoadProfiler.Mode.CONCURRENCY)
        {
            range = LoadRange.parse(concurrencyRange == null ? "1" : concurrencyRange, "--concurrency-range", true);
        }
        else if (requestRateRange == null)
        {
            // A trace alone replays at its own recorded rate.
            range = LoadRange.parse(Double.toString(((Arrivals.Trace)arrivals).ownRate()), "--request-trace",
                false);
        }
        else
        {
            range = LoadRange.parse(requestRateRange, "--request-rate-range", false);
        }
        if (mode == LoadProfiler.Mode.CONCURRENCY && range.end() > 4096)
        {
            throw PerfException.usage("--concurrency-range goes up to " + (long)range.end()
                + "; perf runs one thread per request in flight, at most 4096");
        }
        return new Plan(mode, range.values(), new LoadProfiler.Settings(warmupMs, windowMs, stabilityPct, maxTrials,
            percentile, arrivals, maxOutstanding, latencyThresholdMs * 1000));
    }

    private LoadTarget openTarget()
    {
        if (repository != null)
        {
            if (url != null || protocol != null || metadataUrl != null)
            {
                throw PerfException.usage("--model-repository runs the model in this process; it cannot be combined"
                    + " with -u/--url, -i/--protocol or --metadata-url");
            }
            return new InProcessTarget(repository, model, version, idleMode);
        }
        final String kind = protocol == null ? "http" : protocol.toLowerCase(Locale.ROOT);
        if (metadataUrl != null && !"ipc".equals(kind))
        {
            throw PerfException.usage("--metadata-url goes with -i ipc (HTTP and gRPC read metadata themselves)");
        }
        return switch (kind)
        {
            case "http" -> new HttpTarget(url == null ? "localhost:8000" : url, model, version);
            case "grpc" -> new GrpcTarget(url == null ? "localhost:8001" : url, model, version);
            case "ipc" ->
            {
                if (url == null)
                {
                    throw PerfException.usage("-i ipc needs -u NAME: the IPC name the server was started with"
                        + " (ingot serve --ipc NAME)");
                }
                yield IpcTarget.withHttpMetadata(url, metadataUrl == null ? "localhost:8000" : metadataUrl, model,
                    version);
            }
            default -> throw PerfException.usage("-i/--protocol must be http, grpc or ipc, got '" + protocol + "'");
        };
    }

    /** Refuses a plan that needs more clients at once than the target can have (IPC client slots). */
    private void checkClients(final Plan plan, final LoadTarget target)
    {
        final boolean concurrency = plan.mode() == LoadProfiler.Mode.CONCURRENCY;
        final long needed = concurrency ? (long)plan.levels().stream().mapToDouble(Double::doubleValue).max().orElse(1)
            : maxOutstanding;
        if (needed > target.maxClients())
        {
            throw PerfException.usage((concurrency ? "--concurrency-range goes up to " : "--max-threads is ")
                + needed + " requests in flight, but " + target.describe() + " takes at most " + target.maxClients()
                + " clients at once (one per request in flight: the server's IPC client slots); lower it to "
                + target.maxClients() + " or less");
        }
    }

    private int measure(final Plan plan, final LoadTarget target)
    {
        final LoadTarget.ModelInfo info = target.modelInfo();
        final RequestInputs inputs = RequestInputs.resolve(model, version, info.maxBatchSize(), info.inputs(),
            info.outputs(), batchSize, inputOptions.shapes(), inputOptions.values(), 1);
        target.prepare(inputs);
        final boolean concurrency = plan.mode() == LoadProfiler.Mode.CONCURRENCY;
        final String[] labels = plan.levels().stream()
            .map(level -> concurrency ? "concurrency " + level.longValue() : "rate " + level + "/s")
            .toArray(String[]::new);
        final ProgressBar progress = new ProgressBar(out, ProgressBar.stdoutIsTerminal(), labels);
        final LoadProfiler profiler = new LoadProfiler(target, plan.mode(), inputs.batchSize(), plan.settings(),
            progress);
        final String started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final String name = label != null ? label : target.describe() + " " + model;
        out.printf(Locale.ROOT, "*** Measuring %s on %s: batch %d, %s, windows of %d ms, stability %.0f%% ***%n",
            model, target.describe(), inputs.batchSize(), concurrency ? "concurrency " + labelsRange(plan)
                : "request rate " + labelsRange(plan) + "/s (" + plan.settings().arrivals().describe() + ")",
            windowMs, stabilityPct);
        for (final RequestInputs.Tensor tensor : inputs.inputs())
        {
            out.printf(Locale.ROOT, "    input %s %s %s (%d bytes)%n", tensor.name(), tensor.dataType(),
                tensor.shapeText(), tensor.data().length);
        }

        if (plot != null)
        {
            LatencyPlot.initializeGraphics();
        }
        final List<LevelResult> results = new ArrayList<>();
        final CountDownLatch written = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            profiler.requestStop();
            try
            {
                written.await(60, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "perf-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        PerfException failure = null;
        try
        {
            profiler.run(plan.levels(), result ->
            {
                progress.clear();
                ReportFiles.printRow(report(name, inputs, plan, target, started, List.of(), false, null), result,
                    out, results.isEmpty());
                results.add(result);
            });
        }
        catch (final PerfException ex)
        {
            failure = ex;
        }
        finally
        {
            progress.clear();
            final boolean interrupted = profiler.stopRequested();
            final RunReport report = report(name, inputs, plan, target, started, results, interrupted,
                profiler.firstError());
            try
            {
                if (!results.isEmpty() || failure == null)
                {
                    writeOutputs(report);
                }
                if (interrupted)
                {
                    err.println("perf: interrupted; wrote the " + results.size() + " level(s) measured so far");
                }
            }
            finally
            {
                // After this the shutdown hook returns and an interrupted JVM halts: print everything before.
                out.flush();
                err.flush();
                written.countDown();
                removeHook(hook);
            }
        }
        if (failure != null)
        {
            throw failure;
        }
        if (!results.isEmpty() && results.size() < plan.levels().size() && !profiler.stopRequested()
            && profiler.exceedsThreshold(results.get(results.size() - 1)))
        {
            final LevelResult last = results.get(results.size() - 1);
            out.printf(Locale.ROOT, "stopped at %s: its %s latency %.1f us exceeds -l/--latency-threshold %s ms%n",
                concurrency ? "concurrency " + (long)last.level() : "rate " + last.level() + "/s",
                percentile, last.latencyUs().get(percentile), latencyThresholdMs);
        }
        if (profiler.firstError() != null)
        {
            err.println("warning: some requests failed; the first error: " + profiler.firstError());
        }
        return 0;
    }

    private static String labelsRange(final Plan plan)
    {
        final List<Double> levels = plan.levels();
        final java.util.function.DoubleFunction<String> text = value -> value == Math.rint(value)
            ? Long.toString((long)value) : Double.toString(value);
        return levels.size() == 1 ? text.apply(levels.get(0))
            : text.apply(levels.get(0)) + ".." + text.apply(levels.get(levels.size() - 1)) + " (" + levels.size()
                + " levels)";
    }

    private RunReport report(final String name, final RequestInputs inputs, final Plan plan, final LoadTarget target,
        final String started, final List<LevelResult> results, final boolean interrupted, final String firstError)
    {
        final boolean concurrency = plan.mode() == LoadProfiler.Mode.CONCURRENCY;
        // Run as `ingot perf`, the original arguments start with the subcommand's own name.
        final List<String> args = spec.commandLine().getParseResult().originalArgs();
        final List<String> own = !args.isEmpty() && spec.name().equals(args.get(0)) ? args.subList(1, args.size())
            : args;
        final String command = "ingot perf " + String.join(" ", own.stream().map(PerfCommand::shellQuoted).toList());
        return new RunReport(name, command, target.describe(), model, version, inputs.batchSize(),
            inputs.requestBytes(), concurrency ? "concurrency" : "request_rate",
            concurrency ? "-" : plan.settings().arrivals().describe(), windowMs, stabilityPct,
            plan.settings().latencyThresholdUs(), RunReport.Machine.current(), started, results, interrupted,
            firstError);
    }

    /** Quotes an argument for a POSIX shell when it needs it, so that the recorded command can be pasted. */
    static String shellQuoted(final String argument)
    {
        return argument.matches("[A-Za-z0-9_./:=,+@%^-]+") ? argument : "'" + argument.replace("'", "'\\''") + "'";
    }

    private void writeOutputs(final RunReport report)
    {
        try
        {
            if (csv != null)
            {
                ReportFiles.writeCsv(report, csv);
                out.println("wrote " + csv);
            }
            if (json != null)
            {
                ReportFiles.writeJson(report, json);
                out.println("wrote " + json);
            }
            if (plot != null)
            {
                final List<double[]> points = new ArrayList<>();
                for (final LevelResult result : report.results())
                {
                    final double latency = result.latencyUs().get(plotStatistic);
                    if (Double.isFinite(latency))
                    {
                        points.add(new double[] {result.inferencesPerSecond(), latency, result.level()});
                    }
                }
                LatencyPlot.write(plot, report.model() + " on " + report.target(), plotStatistic,
                    List.of(new ReportFiles.Series(report.label(), points)), false);
                out.println("wrote " + plot);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (ex instanceof PerfException perf)
            {
                throw perf;
            }
            throw PerfException.failure("cannot write the report: " + ex, ex);
        }
    }

    /**
     * Removes a shutdown hook, unless the JVM is already running it.
     *
     * @param hook the hook
     */
    static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // The JVM is already shutting down (Ctrl-C): the hook is running and ends on its own.
        }
    }
}
