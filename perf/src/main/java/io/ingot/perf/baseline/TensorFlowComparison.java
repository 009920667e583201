package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** A SavedModel: Ingot's TensorFlow backend with dynamic batching against TensorFlow's C API called directly. */
@Command(name = "tensorflow", mixinStandardHelpOptions = true,
    description = "A SavedModel: Ingot (dynamic batching) vs TensorFlow's C API direct, unbatched and ideally"
        + " batched.")
final class TensorFlowComparison extends ComparisonCommand
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
