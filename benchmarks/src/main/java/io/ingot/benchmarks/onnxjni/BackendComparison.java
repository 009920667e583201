package io.ingot.benchmarks.onnxjni;

import io.ingot.api.BatchStatistics;
import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelStatistics;
import io.ingot.instance.HostCopies;
import io.ingot.instance.PooledResponseAllocator;
import io.ingot.onnx.OnnxBackendFactory;
import io.ingot.onnx.writer.Attributes;
import io.ingot.onnx.writer.Dim;
import io.ingot.onnx.writer.OnnxModelBuilder;
import io.ingot.onnx.writer.proto.TensorProto;
import io.ingot.perf.Arrivals;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.LevelResult;
import io.ingot.perf.LoadProfiler;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.RequestInputs;
import io.ingot.perf.baseline.OrtDirectTarget;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ONNX Runtime backend over FFM (ONNX Runtime's C API, IO binding) against the JNI backend it replaced (this
 * package's copy of commit 2de26d1's backend, through ONNX Runtime's Java API) and against ONNX Runtime called
 * directly ({@link OrtDirectTarget}: one {@code run} per request on the caller's thread, Java API), in one process,
 * interleaved: per model, concurrency level and round, the three run one after the other, the order rotating from
 * round to round. Ingot's two backends serve the same file with the same configuration (dynamic batching, two
 * instances sharing one session, one intra-op thread; the direct baseline uses one intra-op thread too).
 *
 * <p>A fourth target, {@code ingot_ffm_own}, is the FFM backend's model driven by requests that bring their own
 * response allocator (a {@link PooledResponseAllocator} of their own, not the core's): the runtime then copies each
 * output byte of a batch of two or more from staging into the response, as it did for every request before batches'
 * outputs were shared (commit 550b097), so the copy the shared outputs save is measured in the same run.
 *
 * <p>Per measurement it records throughput, latency percentiles, the batch sizes the core formed, and the bytes
 * copied per request: the runtime's host copies, input and output ({@link HostCopies}: a request of a batch of two or
 * more has its input bytes copied into the staging buffer; its output bytes are written in place into response memory
 * that the responses share, or, for a request with its own allocator, copied from staging into its response; a batch
 * of one is passed through and written in place), plus the bytes each backend copied after its runs (its own
 * counter). Writes one line per measurement to stdout and a TSV to {@code --out}.
 *
 * <p>Workloads: {@code minilm} and {@code resnet50} (the example repository's files), and {@code concat}, a model
 * written here whose output size only the run can tell (the path where the JNI backend copied each output byte twice
 * and the FFM backend copies it once).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.ingot.benchmarks.onnxjni.BackendComparison
 * OUT_DIR [models=minilm,resnet50] [concurrency=1,16] [rounds=3] [windowMs=4000] [examples=examples/models]
 * [file=onnx-backends.tsv]}.
 */
public final class BackendComparison
{
    private record Workload(String model, String config, Path file, Map<String, long[]> shapes,
        Map<String, String> values, long windowMs)
    {
    }

    /** Elements of the {@code concat} workload's input (64 KiB of floats; its output is twice that). */
    private static final long CONCAT_ELEMENTS = 16_384;

    private BackendComparison()
    {
    }

    /**
     * @param args {@code OUT_DIR [key=value ...]}
     * @throws Exception when a measurement fails
     */
    public static void main(final String[] args) throws Exception
    {
        final Path out = Path.of(args[0]);
        final Map<String, String> options = new java.util.HashMap<>();
        for (int i = 1; i < args.length; i++)
        {
            final String[] kv = args[i].split("=", 2);
            options.put(kv[0], kv[1]);
        }
        final List<String> models = List.of(options.getOrDefault("models", "minilm,resnet50").split(","));
        final List<Integer> levels = java.util.Arrays.stream(options.getOrDefault("concurrency", "1,16").split(","))
            .map(Integer::parseInt).toList();
        final int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        final long windowMs = Long.parseLong(options.getOrDefault("windowMs", "4000"));
        final Path examples = Path.of(options.getOrDefault("examples", "examples/models"));
        Files.createDirectories(out);
        final Path repository = Files.createTempDirectory("ingot-onnx-backends");
        final List<Workload> workloads = new ArrayList<>();
        for (final String model : models)
        {
            workloads.add(workload(model, examples, windowMs));
        }
        final CoreOptions.Builder builder = CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).idleMode(IdleMode.BLOCKING);
        for (final Workload w : workloads)
        {
            for (final String backend : List.of(OnnxBackendFactory.NAME, OnnxBackendFactory.NAME + "_jni"))
            {
                final String name = w.model() + "_" + (backend.endsWith("_jni") ? "jni" : "ffm");
                final Path dir = Files.createDirectories(repository.resolve(name).resolve("1"));
                Files.createSymbolicLink(dir.resolve("model.onnx"), w.file().toAbsolutePath());
                Files.writeString(repository.resolve(name).resolve("config.pbtxt"),
                    w.config().formatted(name, backend));
                builder.startupModel(name);
            }
        }
        final List<String> lines = new ArrayList<>();
        lines.add(String.join("\t", "model", "target", "concurrency", "round", "infer_per_s", "p50_us", "p99_us",
            "avg_batch", "runtime_copied_bytes_per_request", "backend_copied_bytes_per_request",
            "runtime_input_copied_bytes_per_request", "runtime_output_copied_bytes_per_request"));
        try (InferenceCore core = InferenceCore.open(builder.build()))
        {
            for (final Workload w : workloads)
            {
                final InProcessTarget ffm = new InProcessTarget(core, repository.toString(), w.model() + "_ffm", "");
                final InProcessTarget jni = new InProcessTarget(core, repository.toString(), w.model() + "_jni", "");
                final InProcessTarget own = new InProcessTarget(core, repository.toString(), w.model() + "_ffm", "")
                    .responseAllocator(new PooledResponseAllocator());
                try (OrtDirectTarget direct = new OrtDirectTarget(w.file(), 1))
                {
                    for (final int n : levels)
                    {
                        for (int round = 0; round < rounds; round++)
                        {
                            final List<LoadTarget> order = new ArrayList<>(List.of(ffm, jni, direct, own));
                            java.util.Collections.rotate(order, round);
                            for (final LoadTarget target : order)
                            {
                                final String served = target == ffm || target == own ? w.model() + "_ffm"
                                    : target == jni ? w.model() + "_jni" : null;
                                final String label = target == own ? "ingot_ffm_own" : served == null ? "ort_direct"
                                    : served.endsWith("_jni") ? "ingot_jni" : "ingot_ffm";
                                lines.add(measure(core, w, target, served, label, n, round));
                                System.out.println(lines.getLast());
                                Files.write(out.resolve(options.getOrDefault("file", "onnx-backends.tsv")), lines);
                            }
                        }
                    }
                }
            }
        }
    }

    private static Workload workload(final String model, final Path examples, final long windowMs)
    {
        final String common = """
            name: "%s" backend: "%s" max_batch_size: %d default_model_filename: "model.onnx"
            %s
            dynamic_batching { }
            instance_group [ { count: 2 kind: KIND_CPU } ]
            parameters { key: "intra_op_thread_count" value { string_value: "1" } }
            """;
        return switch (model)
        {
            case "minilm" -> new Workload(model, common.formatted("%s", "%s", 16, """
                input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] },
                  { name: "attention_mask" data_type: TYPE_INT64 dims: [ -1 ] },
                  { name: "token_type_ids" data_type: TYPE_INT64 dims: [ -1 ] } ]
                output [ { name: "last_hidden_state" data_type: TYPE_FP32 dims: [ -1, 384 ] } ]"""),
                examples.resolve("minilm/1/model.onnx"), Map.of("input_ids", new long[] {64}, "attention_mask",
                new long[] {64}, "token_type_ids", new long[] {64}), Map.of("attention_mask", "1", "token_type_ids",
                "0"), windowMs);
            case "resnet50" -> new Workload(model, common.formatted("%s", "%s", 8, """
                input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
                output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]"""),
                examples.resolve("resnet50/1/model.onnx"), Map.of(), Map.of(), 2 * windowMs);
            case "concat" -> new Workload(model, common.formatted("%s", "%s", 16, """
                input [ { name: "X" data_type: TYPE_FP32 dims: [ -1 ] } ]
                output [ { name: "Y" data_type: TYPE_FP32 dims: [ -1 ] } ]"""), concatModel(),
                Map.of("X", new long[] {CONCAT_ELEMENTS}), Map.of(), windowMs);
            default -> throw new IllegalArgumentException("unknown model " + model + " (minilm, resnet50, concat)");
        };
    }

    /**
     * {@code X: float[batch, n]} to {@code Y = concat(X, X)} declared {@code [batch, m]}: an output whose size only
     * the run can tell (no input has the symbol {@code m}), so both backends leave it to ONNX Runtime and copy it.
     */
    private static Path concatModel()
    {
        try
        {
            final OnnxModelBuilder model = new OnnxModelBuilder("concat");
            model.input("X", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named("n"));
            model.output("Y", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named("m"));
            model.node("Concat", List.of("X", "X"), "Y", Attributes.intValue("axis", 1));
            final Path file = Files.createTempDirectory("ingot-concat").resolve("model.onnx");
            OnnxModelBuilder.write(model.build(), file);
            return file;
        }
        catch (final IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String measure(final InferenceCore core, final Workload w, final LoadTarget target,
        final String served, final String label, final int n, final int round)
    {
        final LoadTarget.ModelInfo info = target.modelInfo();
        final RequestInputs inputs = RequestInputs.resolve(w.model(), "", info.maxBatchSize(), info.inputs(),
            info.outputs(), 1, w.shapes(), w.values(), 1);
        target.prepare(inputs);
        final long before = served == null ? 0 : requestsByBatch(core, served);
        final long copiedBefore = copiedAfterRuns(served);
        final long inputBefore = HostCopies.inputBytes();
        final long outputBefore = HostCopies.outputBytes();
        final LoadProfiler profiler = new LoadProfiler(target, LoadProfiler.Mode.CONCURRENCY, 1,
            new LoadProfiler.Settings(2000, w.windowMs(), 15, 3, "avg", new Arrivals.Constant(), 16, 0),
            (index, phase) ->
            {
            });
        final LevelResult r = profiler.run(List.of((double) n), result ->
        {
        }).getFirst();
        String runtimeCopies = "n/a";
        String backendCopies = "n/a";
        String inputCopies = "n/a";
        String outputCopies = "n/a";
        if (served != null)
        {
            final long requests = requestsByBatch(core, served) - before;
            final long input = HostCopies.inputBytes() - inputBefore;
            final long output = HostCopies.outputBytes() - outputBefore;
            runtimeCopies = perRequest(input + output, requests);
            inputCopies = perRequest(input, requests);
            outputCopies = perRequest(output, requests);
            backendCopies = perRequest(copiedAfterRuns(served) - copiedBefore, requests);
        }
        return String.join("\t", w.model(), label, Integer.toString(n), Integer.toString(round),
            String.format(Locale.ROOT, "%.1f", r.inferencesPerSecond()),
            String.format(Locale.ROOT, "%.0f", r.latencyUs().p50()),
            String.format(Locale.ROOT, "%.0f", r.latencyUs().p99()),
            String.format(Locale.ROOT, "%.2f", r.averageBatchSize()), runtimeCopies, backendCopies, inputCopies,
            outputCopies);
    }

    private static String perRequest(final long bytes, final long requests)
    {
        return Long.toString(requests == 0 ? 0 : bytes / requests);
    }

    private static long copiedAfterRuns(final String served)
    {
        if (served == null)
        {
            return 0;
        }
        return served.endsWith("_jni") ? io.ingot.benchmarks.onnxjni.OnnxBackendFactory.bytesCopiedAfterRuns()
            : OnnxBackendFactory.bytesCopiedAfterRuns();
    }

    /** @return the requests (batch rows) the model executed so far */
    private static long requestsByBatch(final InferenceCore core, final String model)
    {
        long all = 0;
        for (final ModelStatistics statistics : core.modelStatistics(model, -1))
        {
            for (final BatchStatistics batch : statistics.batchStats())
            {
                all += batch.batchSize() * batch.computeInfer().count();
            }
        }
        return all;
    }
}
