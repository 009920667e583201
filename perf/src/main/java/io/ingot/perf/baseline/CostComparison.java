package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.LevelResult;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.RequestInputs;
import io.ingot.perf.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The cost model: Ingot against the computable ideal. */
@Command(name = "cost", mixinStandardHelpOptions = true,
    description = "The cost model (a + b*batch us per execution): Ingot vs the ideal throughput.")
final class CostComparison extends ComparisonCommand
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
