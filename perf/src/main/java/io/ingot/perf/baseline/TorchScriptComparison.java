package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.PerfException;
import io.ingot.perf.RunReport;
import io.ingot.pytorch.script.ScriptModels;
import io.ingot.pytorch.script.TorchScriptWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** A TorchScript MLP: Ingot's PyTorch backend with dynamic batching against libtorch called directly. */
@Command(name = "torchscript", mixinStandardHelpOptions = true,
    description = "A TorchScript MLP: Ingot (dynamic batching) vs libtorch direct, unbatched and ideally batched.")
final class TorchScriptComparison extends ComparisonCommand
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
