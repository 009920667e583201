package io.ingot.perf.baseline;

import picocli.CommandLine;
import picocli.CommandLine.Command;

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
    subcommands = {MiniLmComparison.class, TensorFlowComparison.class, TorchScriptComparison.class,
        FilComparison.class, CostComparison.class},
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
}
