package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.LevelResult;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;
import io.ingot.perf.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A tree model: Ingot's FIL backend serving an XGBoost model with dynamic batching (closed loop, one row per
 * request) against XGBoost's C API called directly ({@link XgboostDirectTarget}) from N threads, one prediction per
 * request, and from as many threads as Ingot has instances on pre-formed batches of the average size Ingot formed at
 * that level (the ideal batcher). Both sides use the same booster settings ({@code nthread} = {@code cpu_nthread}),
 * measured level by level, interleaved, in one process.
 */
@Command(name = "fil", mixinStandardHelpOptions = true,
    description = "XGBoost tree model: Ingot's FIL backend (dynamic batching) vs XGBoost's C API direct, unbatched and"
        + " ideally batched.")
final class FilComparison extends ComparisonCommand
{
    @Option(names = "--model-file", defaultValue = "examples/models/xgboost_classifier/1/xgboost.json",
        description = "An XGBoost JSON model (default ${DEFAULT-VALUE}; written by the fil module's build).")
    Path modelFile;

    @Option(names = "--cpu-nthread", defaultValue = "1",
        description = "Threads per prediction, for Ingot (cpu_nthread) and the baselines (nthread); 0 for XGBoost's"
            + " default (default ${DEFAULT-VALUE}).")
    int threads;

    @Override
    public Integer call()
    {
        if (!Files.isRegularFile(modelFile))
        {
            System.err.println("error: " + modelFile + " does not exist; build the fil module first (mvn -pl fil -am"
                + " package), which trains examples/models/xgboost_classifier/1/xgboost.json");
            return PerfException.FAILURE;
        }
        final String config = """
            name: "fil"
            backend: "fil"
            max_batch_size: %d
            input [ { name: "input__0" data_type: TYPE_FP32 dims: [ %d ] } ]
            output [ { name: "output__0" data_type: TYPE_FP32 dims: [ 1 ] } ]
            dynamic_batching { max_queue_delay_microseconds: %d }
            instance_group [ { count: %d kind: KIND_CPU } ]
            parameters [
              { key: "model_type" value: { string_value: "xgboost_json" } },
              { key: "is_classifier" value: { string_value: "false" } },
              { key: "cpu_nthread" value: { string_value: "%d" } }
            ]
            """;
        final List<LevelResult> ingot = new ArrayList<>();
        final List<LevelResult> unbatched = new ArrayList<>();
        final List<LevelResult> batched = new ArrayList<>();
        long requestBytes = 0;
        try (XgboostDirectTarget direct = new XgboostDirectTarget(modelFile, threads))
        {
            final LoadTarget.ModelInfo directInfo = direct.modelInfo();
            final long features = directInfo.inputs().getFirst().shape().get(1);
            try (BenchRepository repository = BenchRepository.create("fil", config.formatted(maxBatch, features,
                queueDelayUs, instances, threads), modelFile, "xgboost.json");
                InProcessTarget server = new InProcessTarget(repository.root(), "fil", "", IdleMode.BLOCKING))
            {
                final LoadTarget.ModelInfo serverInfo = server.modelInfo();
                final RequestInputs serverInputs = RequestInputs.resolve("fil", "", serverInfo.maxBatchSize(),
                    serverInfo.inputs(), serverInfo.outputs(), 1, Map.of(), Map.of(), 1);
                server.prepare(serverInputs);
                requestBytes = serverInputs.requestBytes();
                for (final int n : concurrency)
                {
                    final LevelResult served = measure(server, serverInputs, n, n);
                    ingot.add(served);
                    print("Ingot FIL, dynamic batching", served);

                    final RequestInputs one = RequestInputs.resolve("fil", "", directInfo.maxBatchSize(),
                        directInfo.inputs(), directInfo.outputs(), 1, Map.of(), Map.of(), 1);
                    direct.prepare(one);
                    final LevelResult plain = measure(direct, one, n, n);
                    unbatched.add(plain);
                    print("XGBoost direct, unbatched", plain);

                    final int size = Math.max(1, (int)Math.round(served.averageBatchSize()));
                    final RequestInputs formed = RequestInputs.resolve("fil", "", directInfo.maxBatchSize(),
                        directInfo.inputs(), directInfo.outputs(), size, Map.of(), Map.of(), 1);
                    direct.prepare(formed);
                    final LevelResult ideal = measure(direct, formed, Math.min(instances, n), n);
                    batched.add(ideal);
                    print("XGBoost direct, pre-formed batches of " + size, ideal);
                }
            }
        }
        final Map<String, RunReport> reports = new LinkedHashMap<>();
        reports.put("fil-ingot", report("Ingot FIL backend, dynamic batching (" + instances + " instances)",
            "in-process core", "xgboost_classifier", 1, requestBytes, ingot));
        reports.put("fil-xgboost-unbatched", report("XGBoost C API direct, one prediction per request",
            "XGBoost direct", "xgboost_classifier", 1, requestBytes, unbatched));
        reports.put("fil-xgboost-batched", report("XGBoost C API direct, pre-formed batches (" + instances
            + " threads)", "XGBoost direct", "xgboost_classifier", 1, requestBytes, batched));
        writeAll("XGBoost (FIL backend), one row per request", reports, table(ingot, unbatched, batched));
        return 0;
    }

    private String table(final List<LevelResult> ingot, final List<LevelResult> unbatched,
        final List<LevelResult> batched)
    {
        final StringBuilder md = new StringBuilder();
        md.append("Command: `").append(command()).append("`\n\n");
        md.append(String.format(Locale.ROOT, "XGBoost model %s, one row of FP32 features per request, %d Ingot"
            + " instances, max_batch_size %d, max_queue_delay %d us, threads per prediction %s.%n%n",
            modelFile.getFileName(), instances, maxBatch, queueDelayUs, threads > 0 ? threads : "XGBoost's default"));
        md.append("| N | Ingot infer/s | Ingot batch | Ingot p50 us | Ingot p99 us | XGB unbatched infer/s "
            + "| XGB unbatched p50 us | XGB unbatched p99 us | XGB batched infer/s (batch) | Ingot / XGB batched "
            + "| Ingot / XGB unbatched | Ingot p50 - XGB unbatched p50 us |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < ingot.size(); i++)
        {
            final LevelResult a = ingot.get(i);
            final LevelResult u = unbatched.get(i);
            final LevelResult b = batched.get(i);
            md.append("| ").append((long)a.level()).append(" | ").append(f(a.inferencesPerSecond()))
                .append(" | ").append(ratio(a.averageBatchSize())).append(" | ").append(f(a.latencyUs().p50()))
                .append(" | ").append(f(a.latencyUs().p99())).append(" | ").append(f(u.inferencesPerSecond()))
                .append(" | ").append(f(u.latencyUs().p50())).append(" | ").append(f(u.latencyUs().p99()))
                .append(" | ").append(f(b.inferencesPerSecond())).append(" (")
                .append(Math.max(1, Math.round(a.averageBatchSize()))).append(") | ")
                .append(ratio(a.inferencesPerSecond() / b.inferencesPerSecond())).append(" | ")
                .append(ratio(a.inferencesPerSecond() / u.inferencesPerSecond())).append(" | ")
                .append(f(a.latencyUs().p50() - u.latencyUs().p50())).append(" |\n");
        }
        return md.toString();
    }
}
