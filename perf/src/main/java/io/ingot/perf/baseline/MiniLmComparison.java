package io.ingot.perf.baseline;

import io.ingot.api.IdleMode;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.PerfException;
import io.ingot.perf.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** MiniLM: Ingot with dynamic batching against ONNX Runtime called directly. */
@Command(name = "minilm", mixinStandardHelpOptions = true,
    description = "MiniLM: Ingot (dynamic batching) vs ONNX Runtime direct, unbatched and ideally batched.")
final class MiniLmComparison extends ComparisonCommand
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
