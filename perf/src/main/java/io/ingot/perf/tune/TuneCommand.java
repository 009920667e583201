package io.ingot.perf.tune;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelControlMode;
import io.ingot.config.BatchingParameters;
import io.ingot.config.ConfigException;
import io.ingot.config.ModelConfigParser;
import io.ingot.config.proto.ModelConfig;
import io.ingot.perf.ArrivalOptions;
import io.ingot.perf.Arrivals;
import io.ingot.perf.InputOptions;
import io.ingot.perf.LatencyPlot;
import io.ingot.perf.LoadProfiler;
import io.ingot.perf.PerfException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code ingot tune}: finds the scheduling configuration of a model with the most throughput within a p99 latency
 * budget, as Triton's Model Analyzer does, but in this process: see the {@code --help} text.
 *
 * <p>Exit codes: 0 when a candidate meets the budget (its diff is written); 1 when none does (the CSV and plot are
 * still written, no configuration is) or the model cannot be served; 2 for bad input.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Find the scheduling configuration with the most throughput within a p99",
        "latency budget (Triton Model Analyzer's job, in this process).",
        "",
        "Sweeps instance count, max_batch_size, max_queue_delay_microseconds and,",
        "with a delay, preferred_batch_size (none, [max], [max/2, max]) — and config",
        "variants given as parameters, e.g. the adaptive batch policy (--adaptive;",
        "measured once per instance count and max_batch_size, as it ignores delay",
        "and preferred sizes) — by loading each candidate into a core of",
        "this process (EXPLICIT model control, the configuration as a load",
        "override: the model's files are not touched) and measuring it with the",
        "`ingot perf` load generator at one load: closed loop (--concurrency) or",
        "open loop (--request-rate, with --request-distribution constant, poisson,",
        "bursty, or --request-trace). Open-loop latency counts from each request's",
        "scheduled start, so a candidate that falls behind shows it.",
        "",
        "Each candidate: --warmup-interval, then exactly 3 windows of",
        "--measurement-interval, counting the requests over the budget (SLO",
        "violations). Best: the most throughput with p99 <= budget and",
        "no failed request (throughputs within 2%% tie; the lower p99 wins).",
        "Writes to --output-dir:",
        "  candidates.csv        every candidate, measured or why not",
        "  pareto.png            p99 against throughput, the Pareto front, the budget",
        "  config.pbtxt.diff     the best configuration as a unified diff against",
        "                        MODEL/config.pbtxt (apply: patch -p1 -d DIR)",
        "  config.pbtxt          the best configuration, the whole file",
        "No configuration is written when no candidate meets the budget.",
        "",
        "Options:"},
    footer = {"",
        "Examples:",
        "  ingot tune --model-repository examples/models -m resnet50 \\",
        "      --latency-budget-ms 100 --concurrency 8",
        "  ingot tune --model-repository repo -m cost --latency-budget-ms 20 \\",
        "      --request-rate 500 --request-distribution bursty --burst-ratio 4 \\",
        "      --adaptive --quick",
        "",
        "Exit status: 0 a configuration meets the budget, 1 none does or the model",
        "cannot be served, 2 bad input."})
public final class TuneCommand implements Callable<Integer>
{
    private static final int DEFAULT_MAX_CANDIDATES = 24;
    private static final int QUICK_MAX_CANDIDATES = 6;

    @Option(names = "--model-repository", paramLabel = "DIR", required = true,
        description = "The model repository (required).")
    private Path repository;

    @Option(names = {"-m", "--model-name"}, paramLabel = "MODEL", required = true,
        description = "The model to tune (required); its config.pbtxt is the diff's base.")
    private String model;

    @Option(names = "--latency-budget-ms", paramLabel = "MS", required = true,
        description = "p99 latency budget in milliseconds, > 0 (required).")
    private double budgetMs;

    @Option(names = "--concurrency", paramLabel = "N",
        description = "Closed loop: N requests always in flight (default 8 without --request-rate).")
    private Integer concurrency;

    @Option(names = "--request-rate", paramLabel = "PER_S",
        description = "Open loop: requests per second (the arrival options shape them).")
    private Double requestRate;

    @Mixin
    private ArrivalOptions arrivalOptions = new ArrivalOptions();

    @Option(names = "--max-threads", paramLabel = "N", defaultValue = "64",
        description = "Open loop: the most requests in flight (default ${DEFAULT-VALUE}).")
    private int maxOutstanding;

    @Option(names = "--instance-counts", paramLabel = "N,N,...", split = ",",
        description = "Instance counts to sweep (default 1, 2, 4 ... up to the processors, at most 8).")
    private List<Integer> instanceCounts;

    @Option(names = "--max-batch-sizes", paramLabel = "N,N,...", split = ",",
        description = "max_batch_size values (default 1, 2, 4 ... up to the model's max_batch_size).")
    private List<Integer> maxBatchSizes;

    @Option(names = "--queue-delays-us", paramLabel = "US,US,...", split = ",",
        description = "max_queue_delay_microseconds values (default 0, 1000, 5000).")
    private List<Long> queueDelays;

    @Option(names = "--variant", paramLabel = "KEY=VALUE[;KEY=VALUE...]",
        description = "A config variant: these parameters are added to every batching candidate, as a copy"
            + " (repeatable).")
    private List<String> variants = new ArrayList<>();

    @Option(names = "--adaptive",
        description = "Add the variant ingot.batching=adaptive;ingot.latency_slo_us=<budget>: the adaptive batch"
            + " policy, where this build has it (without it the parameters load and change nothing).")
    private boolean adaptive;

    @Option(names = "--max-candidates", paramLabel = "N",
        description = "The most candidates measured, the current configuration included (default "
            + DEFAULT_MAX_CANDIDATES + ", --quick " + QUICK_MAX_CANDIDATES + "); a larger grid is sampled evenly.")
    private Integer maxCandidates;

    @Option(names = {"-p", "--measurement-interval"}, paramLabel = "MS",
        description = "Length of a measurement window (default 2000, --quick 300).")
    private Long windowMs;

    @Option(names = "--warmup-interval", paramLabel = "MS",
        description = "Warm-up of each candidate (default 1000, --quick 200).")
    private Long warmupMs;

    @Option(names = "--quick", description = "CI-sized: fewer candidates, shorter windows.")
    private boolean quick;

    @Mixin
    private InputOptions inputOptions = new InputOptions();

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR",
        description = "Where the files go (default tune-MODEL).")
    private Path outputDir;

    @Option(names = "--idle-mode", paramLabel = "BLOCKING|BACKOFF|SPINNING", defaultValue = "BLOCKING",
        description = "How the core's threads wait for work (default ${DEFAULT-VALUE}).")
    private IdleMode idleMode;

    private final PrintStream out;
    private final PrintStream err;

    /** The command as {@code ingot} loads it: printing to the standard streams. */
    public TuneCommand()
    {
        this(System.out, System.err);
    }

    /**
     * @param out standard output
     * @param err standard error
     */
    public TuneCommand(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
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

    /** The validated options. */
    private record Plan(LoadProfiler.Mode mode, double level, String load, LoadProfiler.Settings settings,
        int maxCandidates, List<Map<String, String>> variants, Map<String, long[]> shapes,
        Map<String, String> values)
    {
    }

    private Plan plan()
    {
        if (!(budgetMs > 0) || Double.isInfinite(budgetMs))
        {
            throw PerfException.usage("--latency-budget-ms must be a number of milliseconds > 0, got " + budgetMs);
        }
        if (concurrency != null && requestRate != null)
        {
            throw PerfException.usage("give either --concurrency or --request-rate, not both");
        }
        if (concurrency == null && requestRate == null && arrivalOptions.given() && !arrivalOptions.hasTrace())
        {
            throw PerfException.usage("--request-distribution, --burst-ratio and --burst-period-ms shape an open"
                + " loop: give --request-rate too");
        }
        if (concurrency != null && arrivalOptions.given())
        {
            throw PerfException.usage("--request-distribution, --burst-ratio, --burst-period-ms and --request-trace"
                + " go with --request-rate, not --concurrency");
        }
        final Arrivals arrivals = arrivalOptions.arrivals();
        final boolean open = requestRate != null || arrivals instanceof Arrivals.Trace;
        final double level;
        if (open)
        {
            level = requestRate != null ? requestRate : ((Arrivals.Trace)arrivals).ownRate();
            if (!(level > 0) || Double.isInfinite(level))
            {
                throw PerfException.usage("--request-rate must be a number of requests per second > 0, got "
                    + level);
            }
        }
        else
        {
            level = concurrency == null ? 8 : concurrency;
            if (level < 1 || level > 4096)
            {
                throw PerfException.usage("--concurrency must be between 1 and 4096, got " + (long)level);
            }
        }
        if (maxOutstanding < 1)
        {
            throw PerfException.usage("--max-threads must be at least 1, got " + maxOutstanding);
        }
        final int candidates = maxCandidates != null ? maxCandidates
            : quick ? QUICK_MAX_CANDIDATES : DEFAULT_MAX_CANDIDATES;
        if (candidates < 1)
        {
            throw PerfException.usage("--max-candidates must be at least 1, got " + candidates);
        }
        final long window = windowMs != null ? windowMs : quick ? 300 : 2000;
        final long warmup = warmupMs != null ? warmupMs : quick ? 200 : 1000;
        if (window < 50)
        {
            throw PerfException.usage("-p/--measurement-interval must be at least 50 ms, got " + window);
        }
        if (warmup < 0)
        {
            throw PerfException.usage("--warmup-interval must be >= 0 ms, got " + warmup);
        }
        positive(instanceCounts, "--instance-counts");
        positive(maxBatchSizes, "--max-batch-sizes");
        if (queueDelays != null && queueDelays.stream().anyMatch(delay -> delay < 0))
        {
            throw PerfException.usage("--queue-delays-us must be >= 0 microseconds, got " + queueDelays);
        }
        final List<Map<String, String>> parsedVariants = new ArrayList<>();
        for (final String variant : variants)
        {
            parsedVariants.add(parseVariant(variant));
        }
        if (adaptive)
        {
            parsedVariants.add(Map.of(BatchingParameters.BATCHING, BatchingParameters.Kind.ADAPTIVE.value(),
                BatchingParameters.LATENCY_SLO, Long.toString(Math.round(budgetMs * 1000))));
        }
        final String load = open ? String.format(Locale.ROOT, "request rate %.1f/s (%s)", level,
            arrivals.describe()) : "concurrency " + (long)level;
        return new Plan(open ? LoadProfiler.Mode.REQUEST_RATE : LoadProfiler.Mode.CONCURRENCY, level, load,
            new LoadProfiler.Settings(warmup, window, 10, LoadProfiler.STABILITY_WINDOWS, "avg", arrivals,
                maxOutstanding, budgetMs * 1000), candidates, parsedVariants, inputOptions.shapes(),
            inputOptions.values());
    }

    private static void positive(final List<Integer> list, final String option)
    {
        if (list != null && list.stream().anyMatch(value -> value < 1))
        {
            throw PerfException.usage(option + " must be whole numbers >= 1, got " + list);
        }
    }

    /**
     * @param text {@code KEY=VALUE;KEY=VALUE}
     * @return the parameters
     */
    static Map<String, String> parseVariant(final String text)
    {
        final Map<String, String> parameters = new LinkedHashMap<>();
        for (final String pair : text.split(";"))
        {
            final int equals = pair.indexOf('=');
            if (equals <= 0)
            {
                throw PerfException.usage("--variant must be KEY=VALUE[;KEY=VALUE...], got '" + text + "' ('"
                    + pair + "' has no KEY=)");
            }
            parameters.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
        }
        return parameters;
    }

    private int run()
    {
        final Plan plan = plan();
        final Path file = repository.resolve(model).resolve("config.pbtxt");
        if (!Files.isRegularFile(file))
        {
            throw PerfException.usage("--model-repository " + repository + " has no " + model + "/config.pbtxt: tune"
                + " writes its result as a diff of that file");
        }
        final String text;
        final ModelConfig written;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
            written = ModelConfigParser.parse(text, file.toString());
        }
        catch (final IOException ex)
        {
            throw PerfException.failure("cannot read " + file + ": " + ex.getMessage(), ex);
        }
        catch (final ConfigException ex)
        {
            throw PerfException.usage(ex.getMessage());
        }
        final Path output = outputDir != null ? outputDir : Path.of("tune-" + model);
        LatencyPlot.initializeGraphics();
        try (InferenceCore core = open())
        {
            core.loadModel(model);
            final ModelConfig completed = core.modelConfig(model, InferenceRequest.DEFAULT_VERSION);
            return sweep(plan, core, text, written, completed, output);
        }
        catch (final InferenceException ex)
        {
            throw PerfException.failure("model '" + model + "' in " + repository + " does not load as it is: "
                + ex.getMessage(), ex);
        }
    }

    private InferenceCore open()
    {
        try
        {
            return InferenceCore.open(CoreOptions.builder().modelRepository(repository)
                .controlMode(ModelControlMode.EXPLICIT).idleMode(idleMode).build());
        }
        catch (final InferenceException ex)
        {
            throw PerfException.failure("cannot open model repository " + repository + ": " + ex.getMessage(), ex);
        }
    }

    private int sweep(final Plan plan, final InferenceCore core, final String text, final ModelConfig written,
        final ModelConfig completed, final Path output)
    {
        final int modelMax = completed.getMaxBatchSize();
        final CandidateGrid grid = new CandidateGrid(
            instanceCounts != null ? instanceCounts : powersOfTwo(Math.min(8, Runtime.getRuntime()
                .availableProcessors())),
            maxBatchSizes != null ? maxBatchSizes : powersOfTwo(Math.max(1, modelMax)),
            queueDelays != null ? queueDelays : List.of(0L, 1000L, 5000L), plan.variants());
        final Candidate current = Candidate.of(completed);
        final List<Candidate> all = grid.all(modelMax > 0);
        final List<Candidate> candidates = CandidateGrid.select(current, all, plan.maxCandidates());
        final int gridSize = all.contains(current) ? all.size() : all.size() + 1;
        final long perCandidateMs = plan.settings().warmupMs()
            + LoadProfiler.STABILITY_WINDOWS * plan.settings().windowMs();
        out.printf(Locale.ROOT, "*** Tuning %s (%s): p99 budget %s ms at %s ***%n", model, repository,
            trim(budgetMs), plan.load());
        out.printf(Locale.ROOT, "    grid of %d candidates; measuring %d%s, about %d ms each%n", gridSize,
            candidates.size(), candidates.size() < gridSize ? " (sampled evenly; --max-candidates)" : "",
            perCandidateMs);
        if (!plan.variants().isEmpty())
        {
            out.println("    variants: " + plan.variants() + " (parameters a build without their policy loads"
                + " and ignores)");
        }
        final Sweep sweep = new Sweep(core, repository.toString(), model, plan.mode(), plan.level(),
            plan.settings(), plan.shapes(), plan.values(), budgetMs * 1000);
        final SweepOutcome outcome = new SweepOutcome(sweep.run(written, completed, candidates,
            result -> out.println(progressLine(result, candidates.size()))));
        return write(outcome, plan, text, written, completed, output);
    }

    private String progressLine(final CandidateResult result, final int total)
    {
        final String head = String.format(Locale.ROOT, "[%d/%d] %s%s: ", result.number(), total,
            result.candidate().describe(), result.number() == 1 ? " (current)" : "");
        if (!result.measured())
        {
            return head + result.error();
        }
        return head + String.format(Locale.ROOT, "%.1f infer/s, p50 %.2f ms, p99 %.2f ms, %.2f%% over budget, avg"
            + " batch %.2f%s -> %s", result.throughput(), result.p50Us() / 1000, result.p99Us() / 1000,
            100 * result.result().overThresholdFraction(), result.result().averageBatchSize(),
            result.result().errors() > 0 ? ", " + result.result().errors() + " failed" : "",
            result.meetsBudget() ? "meets budget" : "misses budget");
    }

    private int write(final SweepOutcome outcome, final Plan plan, final String text, final ModelConfig written,
        final ModelConfig completed, final Path output)
    {
        final Optional<CandidateResult> best = outcome.best();
        try
        {
            final Path csv = output.resolve("candidates.csv");
            TuneReport.writeCsv(csv, outcome);
            out.println("wrote " + csv);
            final Path png = output.resolve("pareto.png");
            TuneReport.writePlot(png, model + ": p99 against throughput at " + plan.load(), outcome);
            out.println("wrote " + png);
            if (best.isEmpty())
            {
                refuse(outcome);
                return PerfException.FAILURE;
            }
            final CandidateResult chosen = best.get();
            final String path = model + "/config.pbtxt";
            final String tuned = chosen.number() == 1 ? text : ConfigEditor.edit(text, written,
                chosen.candidate().applyTo(written, completed), path);
            final String diff = ConfigDiff.unified(path, text, tuned);
            final Path diffFile = output.resolve("config.pbtxt.diff");
            TuneReport.write(diffFile, diff);
            TuneReport.write(output.resolve("config.pbtxt"), tuned);
            out.printf(Locale.ROOT, "best: #%d %s: %.1f infer/s, p99 %.2f ms (budget %s ms)%n", chosen.number(),
                chosen.candidate().describe(), chosen.throughput(), chosen.p99Us() / 1000, trim(budgetMs));
            final CandidateResult first = outcome.results().get(0);
            if (first.measured() && chosen.number() != 1)
            {
                out.printf(Locale.ROOT, "    against the current configuration: %.2fx its throughput, p99 %.2f ms"
                    + " -> %.2f ms%n", chosen.throughput() / first.throughput(), first.p99Us() / 1000,
                    chosen.p99Us() / 1000);
            }
            out.println(diff.isEmpty() ? "the current configuration is the best: " + diffFile + " is empty"
                : "wrote " + diffFile + " (apply: patch -p1 -d " + repository + " < " + diffFile + ")");
            out.println("wrote " + output.resolve("config.pbtxt"));
            return 0;
        }
        catch (final IOException ex)
        {
            throw PerfException.failure("cannot write the results to " + output + ": " + ex.getMessage(), ex);
        }
    }

    private void refuse(final SweepOutcome outcome)
    {
        final Optional<CandidateResult> closest = outcome.closestMiss();
        if (closest.isEmpty())
        {
            err.println("error: no candidate could be measured (see the CSV's error column); no configuration"
                + " written");
            return;
        }
        final CandidateResult miss = closest.get();
        final String why = miss.p99Us() > miss.budgetUs()
            ? String.format(Locale.ROOT, "its p99 %.2f ms misses the %s ms budget by %.2f ms (%.0f%%)",
                miss.p99Us() / 1000, trim(budgetMs), (miss.p99Us() - miss.budgetUs()) / 1000,
                100 * (miss.p99Us() / miss.budgetUs() - 1))
            : miss.result().errors() + " of its requests failed (" + miss.error() + ")";
        err.printf(Locale.ROOT, "error: no candidate meets the p99 budget of %s ms; the closest, #%d %s (%.1f"
            + " infer/s): %s; no configuration written%n", trim(budgetMs), miss.number(), miss.candidate().describe(),
            miss.throughput(), why);
    }

    private static List<Integer> powersOfTwo(final int upTo)
    {
        final List<Integer> values = new ArrayList<>();
        for (int value = 1; value < upTo; value *= 2)
        {
            values.add(value);
        }
        values.add(upTo);
        return values;
    }

    private static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }
}
