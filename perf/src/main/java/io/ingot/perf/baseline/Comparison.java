package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
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
import io.ingot.pytorch.script.ScriptModels;
import io.ingot.pytorch.script.TorchScriptWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
 * Runs Ingot and its real-model baselines in one process, level by level, with the measurement of
 * {@code ingot perf} (windows until stable, HdrHistogram percentiles), and writes one JSON report per configuration,
 * a combined latency/throughput plot and a Markdown table of absolute figures and ratios.
 *
 * <ul>
 *   <li>{@code minilm}: at each concurrency N — Ingot serving MiniLM with dynamic batching (closed loop, batch-1
 *       requests); ONNX Runtime called directly from N threads, one {@code run} per request; and ONNX Runtime run
 *       by as many threads as Ingot has instances on pre-formed batches of the average size Ingot formed at that
 *       level (the ideal batcher). Every configuration uses one shared session with the same intra-op threads.</li>
 *   <li>{@code fil}: the same three for a tree model: Ingot's FIL backend serving the XGBoost example against XGBoost's
 *       C API called directly ({@link FilComparison});</li>
 *   <li>{@code torchscript}: the same three configurations for a TorchScript MLP ({@code INPUT__0 [features] ->
 *       hidden ReLU -> OUTPUT__0 [outputs]}, seeded weights, written by the pytorch module's TorchScript writer):
 *       Ingot's PyTorch backend against libtorch called directly through DJL ({@link TorchDirectTarget}), with the
 *       same intra-op threads.</li>
 *   <li>{@code tensorflow}: the same three configurations for a SavedModel ({@link TfBenchModels}: the article's
 *       {@code simple} add/sub model or a dense {@code mlp}) through Ingot's TensorFlow backend and through
 *       TensorFlow's C API called directly ({@link TfDirectTarget}, a session per client), every session with the
 *       same intra- and inter-op threads.</li>
 *   <li>{@code cost}: Ingot serving the built-in {@code cost} model (each execution takes a + b·batch µs) against
 *       its computable ideal throughput: with K instances and N clients, N/(a+b) for N ≤ K, else K·B/(a+b·B) with
 *       B = min(max batch, N/K).</li>
 * </ul>
 */
@Command(name = "comparison", mixinStandardHelpOptions = true,
    subcommands = {Comparison.MiniLm.class, Comparison.TensorFlow.class, Comparison.TorchScript.class,
        FilComparison.class, Comparison.Cost.class},
    description = "Ingot against its real-model baselines, measured in the same run.")
public final class Comparison implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args {@code minilm ...}, {@code tensorflow ...} or {@code cost ...}
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new Comparison()).execute(args));
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /** Options every comparison shares. */
    abstract static class Common implements Callable<Integer>
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
    }

    /** MiniLM: Ingot with dynamic batching against ONNX Runtime called directly. */
    @Command(name = "minilm", mixinStandardHelpOptions = true,
        description = "MiniLM: Ingot (dynamic batching) vs ONNX Runtime direct, unbatched and ideally batched.")
    static final class MiniLm extends Common
    {
        @Option(names = "--model-file", defaultValue = "examples/models/minilm/1/model.onnx",
            description = "The MiniLM ONNX file (default ${DEFAULT-VALUE}; built by the onnx module).")
        Path modelFile;

        @Option(names = "--sequence-length", defaultValue = "64",
            description = "Tokens per sequence (default ${DEFAULT-VALUE}).")
        int sequenceLength;

        @Option(names = "--intra-op-threads", defaultValue = "1",
            description = "ONNX Runtime intra-op threads, for Ingot and the baselines (default ${DEFAULT-VALUE}).")
        int intraOpThreads;

        @Override
        public Integer call()
        {
            if (!Files.isRegularFile(modelFile))
            {
                System.err.println("error: " + modelFile + " does not exist; build the onnx module first (mvn -pl onnx"
                    + " -am package), which extracts MiniLM into examples/models/minilm/1/model.onnx");
                return PerfException.FAILURE;
            }
            final String config = """
                name: "minilm"
                platform: "onnxruntime_onnx"
                max_batch_size: %d
                input [
                  { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] },
                  { name: "attention_mask" data_type: TYPE_INT64 dims: [ -1 ] },
                  { name: "token_type_ids" data_type: TYPE_INT64 dims: [ -1 ] }
                ]
                output [ { name: "last_hidden_state" data_type: TYPE_FP32 dims: [ -1, 384 ] } ]
                dynamic_batching { max_queue_delay_microseconds: %d }
                instance_group [ { count: %d kind: KIND_CPU } ]
                parameters { key: "intra_op_thread_count" value { string_value: "%d" } }
                """.formatted(maxBatch, queueDelayUs, instances, intraOpThreads);
            final Map<String, long[]> shapes = Map.of("input_ids", new long[] {sequenceLength},
                "attention_mask", new long[] {sequenceLength}, "token_type_ids", new long[] {sequenceLength});
            final Map<String, String> values = Map.of("attention_mask", "1", "token_type_ids", "0");
            final Series series;
            try (BenchRepository repository = BenchRepository.create("minilm", config, modelFile, "model.onnx");
                InProcessTarget server = new InProcessTarget(repository.root(), "minilm", "", IdleMode.BLOCKING);
                OrtDirectTarget direct = new OrtDirectTarget(modelFile, intraOpThreads))
            {
                series = compare("minilm", server, direct, "ORT", shapes, values);
            }
            final Map<String, RunReport> reports = reports("minilm", "ort", "minilm", "Ingot, dynamic batching",
                "ONNX Runtime direct", series);
            writeAll("MiniLM, sequence " + sequenceLength, reports, table(String.format(Locale.ROOT, "MiniLM"
                + " (all-MiniLM-L6-v2, quantized), sequence length %d, %d Ingot instances, max_batch_size %d,"
                + " max_queue_delay %d us, intra-op threads %d.", sequenceLength, instances, maxBatch, queueDelayUs,
                intraOpThreads), "ORT", series));
            return 0;
        }
    }

    /** A SavedModel: Ingot's TensorFlow backend with dynamic batching against TensorFlow's C API called directly. */
    @Command(name = "tensorflow", mixinStandardHelpOptions = true,
        description = "A SavedModel: Ingot (dynamic batching) vs TensorFlow's C API direct, unbatched and ideally"
            + " batched.")
    static final class TensorFlow extends Common
    {
        @Option(names = "--model", defaultValue = "simple",
            description = "simple (the article's add/sub model, [16]) or mlp (256-1024-1024-16 dense layers);"
                + " default ${DEFAULT-VALUE}.")
        String model;

        @Option(names = "--intra-op-threads", defaultValue = "1",
            description = "TF_NUM_INTRA_THREADS for Ingot's sessions and the baseline's (default ${DEFAULT-VALUE}).")
        int intraOpThreads;

        @Option(names = "--inter-op-threads", defaultValue = "1",
            description = "TF_NUM_INTER_THREADS for Ingot's sessions and the baseline's (default ${DEFAULT-VALUE}).")
        int interOpThreads;

        /** The cli's class path: it has TensorFlow's native jar, which the JMH jar leaves out (160 MB). */
        @Override
        String launcher()
        {
            return "java --enable-native-access=ALL-UNNAMED"
                + " -cp \"$(ls cli/target/ingot-cli-*.jar):$(cat cli/target/classpath.txt)\"";
        }

        @Override
        public Integer call() throws IOException
        {
            final Path savedModel = Files.createTempDirectory("ingot-bench-savedmodel").resolve("model.savedmodel");
            TfBenchModels.model(model, 7).write(savedModel);
            final String config = """
                name: "%s"
                platform: "tensorflow_savedmodel"
                max_batch_size: %d
                %s
                dynamic_batching { max_queue_delay_microseconds: %d }
                instance_group [ { count: %d kind: KIND_CPU } ]
                parameters { key: "TF_NUM_INTRA_THREADS" value { string_value: "%d" } }
                parameters { key: "TF_NUM_INTER_THREADS" value { string_value: "%d" } }
                """.formatted(model, maxBatch, TfBenchModels.io(model), queueDelayUs, instances, intraOpThreads,
                interOpThreads);
            final Series series;
            try (BenchRepository repository = BenchRepository.create(model, config, savedModel, "model.savedmodel");
                InProcessTarget server = new InProcessTarget(repository.root(), model, "", IdleMode.BLOCKING);
                TfDirectTarget direct = new TfDirectTarget(savedModel, intraOpThreads, interOpThreads))
            {
                series = compare(model, server, direct, "TF", Map.of(), Map.of());
            }
            finally
            {
                BenchRepository.delete(savedModel.getParent());
            }
            final Map<String, RunReport> reports = reports("tensorflow-" + model, "tf", model,
                "Ingot, TensorFlow backend, dynamic batching", "TensorFlow C API direct", series);
            writeAll("SavedModel " + model + ", TensorFlow 2.18", reports, table(String.format(Locale.ROOT,
                "SavedModel `%s` (TensorFlow 2.18.0 C API), %d Ingot instances (a session each), max_batch_size %d,"
                + " max_queue_delay %d us, intra-op threads %d, inter-op threads %d; the direct baseline has a"
                + " session per client thread.", model, instances, maxBatch, queueDelayUs, intraOpThreads,
                interOpThreads), "TF", series));
            return 0;
        }
    }

    /** A TorchScript MLP: Ingot's PyTorch backend with dynamic batching against libtorch called directly. */
    @Command(name = "torchscript", mixinStandardHelpOptions = true,
        description = "A TorchScript MLP: Ingot (dynamic batching) vs libtorch direct, unbatched and ideally batched.")
    static final class TorchScript extends Common
    {
        @Option(names = "--features", defaultValue = "256", description = "Input features (default ${DEFAULT-VALUE}).")
        int features;

        @Option(names = "--hidden", defaultValue = "1024", description = "Hidden units (default ${DEFAULT-VALUE}).")
        int hidden;

        @Option(names = "--outputs", defaultValue = "16", description = "Output features (default ${DEFAULT-VALUE}).")
        int outputs;

        @Option(names = "--intra-op-threads", defaultValue = "1",
            description = "libtorch intra-op threads, process-wide, for Ingot and the baselines (default"
                + " ${DEFAULT-VALUE}).")
        int intraOpThreads;

        @Option(names = "--direct-modules", defaultValue = "shared",
            description = "The direct baselines' modules: shared (one for every thread) or per-thread (default"
                + " ${DEFAULT-VALUE}).")
        String directModules;

        /** libtorch is not in the JMH jar (benchmarks/pom.xml): this comparison runs on the cli's class path. */
        @Override
        String launcher()
        {
            return "java --enable-native-access=ALL-UNNAMED"
                + " -cp \"$(ls cli/target/ingot-cli-*.jar | grep -v -- -tests):$(cat cli/target/classpath.txt)\"";
        }

        @Override
        public Integer call() throws IOException
        {
            final Path dir = Files.createTempDirectory("ingot-bench-torchscript");
            final Path modelFile = dir.resolve("model.pt");
            TorchScriptWriter.write(ScriptModels.mlp("BenchMlp", features, hidden, outputs, 7), modelFile);
            final String config = """
                name: "torch_mlp"
                platform: "pytorch_libtorch"
                max_batch_size: %d
                input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ %d ] } ]
                output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ %d ] } ]
                dynamic_batching { max_queue_delay_microseconds: %d }
                instance_group [ { count: %d kind: KIND_CPU } ]
                parameters { key: "INTRA_OP_THREAD_COUNT" value { string_value: "%d" } }
                """.formatted(maxBatch, features, outputs, queueDelayUs, instances, intraOpThreads);
            final Series series;
            try (BenchRepository repository = BenchRepository.create("torch_mlp", config, modelFile, "model.pt");
                InProcessTarget server = new InProcessTarget(repository.root(), "torch_mlp", "", IdleMode.BLOCKING);
                TorchDirectTarget direct = new TorchDirectTarget(modelFile, features, intraOpThreads,
                    perThread()))
            {
                series = compare("torch_mlp", server, direct, "libtorch", Map.of(), Map.of());
            }
            finally
            {
                Files.deleteIfExists(modelFile);
                Files.deleteIfExists(dir);
            }
            final String shape = features + "-" + hidden + "-" + outputs;
            final Map<String, RunReport> reports = reports("torchscript", "libtorch", "torch_mlp " + shape,
                "Ingot, PyTorch backend, dynamic batching", "libtorch (DJL) direct", series);
            writeAll("TorchScript MLP " + shape, reports, table(String.format(Locale.ROOT,
                "TorchScript MLP %s (FP32, seeded weights), %d Ingot instances (one module each), max_batch_size %d,"
                + " max_queue_delay %d us, libtorch intra-op threads %d; libtorch direct: %s.", shape, instances,
                maxBatch, queueDelayUs, intraOpThreads, perThread() ? "one module per thread" : "one module shared by"
                + " every thread"), "libtorch", series));
            return 0;
        }

        private boolean perThread()
        {
            return switch (directModules)
            {
                case "shared" -> false;
                case "per-thread" -> true;
                default -> throw PerfException.usage("--direct-modules is shared or per-thread, not '" + directModules
                    + "'");
            };
        }
    }

    /** The cost model: Ingot against the computable ideal. */
    @Command(name = "cost", mixinStandardHelpOptions = true,
        description = "The cost model (a + b*batch us per execution): Ingot vs the ideal throughput.")
    static final class Cost extends Common
    {
        @Option(names = "--base-us", defaultValue = "2000", description = "a, in us (default ${DEFAULT-VALUE}).")
        long baseUs;

        @Option(names = "--per-item-us", defaultValue = "250", description = "b, in us (default ${DEFAULT-VALUE}).")
        long perItemUs;

        @Option(names = "--mode", defaultValue = "sleep",
            description = "sleep (CPU free) or spin (default ${DEFAULT-VALUE}).")
        String mode;

        @Override
        public Integer call()
        {
            final String config = """
                name: "cost"
                backend: "cost"
                max_batch_size: %d
                input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
                output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
                dynamic_batching { max_queue_delay_microseconds: %d }
                instance_group [ { count: %d kind: KIND_CPU } ]
                parameters { key: "base_us" value { string_value: "%d" } }
                parameters { key: "per_item_us" value { string_value: "%d" } }
                parameters { key: "mode" value { string_value: "%s" } }
                """.formatted(maxBatch, queueDelayUs, instances, baseUs, perItemUs, mode);
            final List<LevelResult> ingot = new ArrayList<>();
            final List<Double> ideal = new ArrayList<>();
            long requestBytes;
            try (BenchRepository repository = BenchRepository.create("cost", config, null, null);
                InProcessTarget server = new InProcessTarget(repository.root(), "cost", "", IdleMode.BLOCKING))
            {
                final LoadTarget.ModelInfo info = server.modelInfo();
                final RequestInputs inputs = RequestInputs.resolve("cost", "", info.maxBatchSize(), info.inputs(),
                    info.outputs(), 1, Map.of(), Map.of(), 1);
                server.prepare(inputs);
                requestBytes = inputs.requestBytes();
                for (final int n : concurrency)
                {
                    final LevelResult served = measure(server, inputs, n, n);
                    ingot.add(served);
                    ideal.add(idealThroughput(n));
                    print("Ingot, cost model", served);
                }
            }
            final Map<String, RunReport> reports = new LinkedHashMap<>();
            reports.put("cost-ingot", report("Ingot, cost model", "in-process core", "cost", 1, requestBytes, ingot));
            final List<LevelResult> idealResults = new ArrayList<>();
            for (int i = 0; i < ingot.size(); i++)
            {
                final double n = ingot.get(i).level();
                final double latency = n / ideal.get(i) * 1e6;
                final LevelResult.Latency l = new LevelResult.Latency(latency, latency, latency, latency, latency,
                    latency, latency, latency, 0);
                idealResults.add(new LevelResult(n, 0, 0, 0, 0, ideal.get(i), ideal.get(i), l, idealBatch(n),
                    Double.NaN, Double.NaN, Double.NaN, 0, true, true, 0));
            }
            reports.put("cost-ideal", report("ideal (computed)", "computed", "cost", 1, requestBytes, idealResults));
            writeAll("cost model a=" + baseUs + "us b=" + perItemUs + "us", reports, table(ingot, ideal));
            return 0;
        }

        /** The batch each instance would run in the ideal schedule. */
        private double idealBatch(final double clients)
        {
            return clients <= instances ? 1 : Math.min(maxBatch, clients / instances);
        }

        /** Inferences per second of the ideal schedule (see the class comment). */
        double idealThroughput(final double clients)
        {
            if (clients <= instances)
            {
                return clients * 1e6 / (baseUs + perItemUs);
            }
            final double batch = idealBatch(clients);
            return instances * batch * 1e6 / (baseUs + perItemUs * batch);
        }

        private String table(final List<LevelResult> ingot, final List<Double> ideal)
        {
            final StringBuilder md = new StringBuilder();
            md.append("Command: `").append(command()).append("`\n\n");
            md.append(String.format(Locale.ROOT, "cost model: a = %d us, b = %d us per item, mode %s, %d instances, "
                + "max_batch_size %d, max_queue_delay %d us.%n%n", baseUs, perItemUs, mode, instances, maxBatch,
                queueDelayUs));
            md.append("| N | Ingot infer/s | ideal infer/s | Ingot / ideal | Ingot batch | ideal batch | Ingot p50 ms "
                + "| Ingot p99 ms | ideal latency ms |\n");
            md.append("|---|---|---|---|---|---|---|---|---|\n");
            for (int i = 0; i < ingot.size(); i++)
            {
                final LevelResult a = ingot.get(i);
                md.append("| ").append((long)a.level()).append(" | ").append(f(a.inferencesPerSecond())).append(" | ")
                    .append(f(ideal.get(i))).append(" | ").append(ratio(a.inferencesPerSecond() / ideal.get(i)))
                    .append(" | ").append(ratio(a.averageBatchSize())).append(" | ")
                    .append(ratio(idealBatch(a.level()))).append(" | ").append(f(a.latencyUs().p50() / 1000))
                    .append(" | ").append(f(a.latencyUs().p99() / 1000)).append(" | ")
                    .append(ratio(a.level() / ideal.get(i) * 1000)).append(" |\n");
            }
            return md.toString();
        }
    }

    static void print(final String what, final LevelResult r)
    {
        System.out.printf(Locale.ROOT, "%-45s N=%-4d %10.1f infer/s  p50 %8.2f ms  p99 %8.2f ms  batch %5.2f%s%n",
            what, (long)r.level(), r.inferencesPerSecond(), r.latencyUs().p50() / 1000, r.latencyUs().p99() / 1000,
            r.averageBatchSize(), r.stable() ? "" : "  (unstable)");
    }
}
