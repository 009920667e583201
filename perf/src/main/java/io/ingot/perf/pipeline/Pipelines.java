package io.ingot.perf.pipeline;

import io.ingot.api.IdleMode;
import io.ingot.api.ResponseFuture;
import io.ingot.config.proto.ModelConfig;
import io.ingot.perf.support.BenchModels;

import java.util.List;

/**
 * Builds the pipelines of the comparison by name, each configured alike: the identity model with
 * {@code max_batch_size} {@code maxBatch}, no queue delay (Triton's and Ingot's default; DJL's with
 * {@code maxBatchDelay} 0), one instance (the DJL-style worker is its one instance).
 */
public final class Pipelines
{
    /** Every pipeline, in report order. */
    public static final List<String> NAMES = List.of("ingot", "djl-style", "triton-style", "direct");
    /**
     * The hand-off floor ({@link HandOffFloorPipeline}): one submitting thread only, so not among {@link #NAMES}, whose
     * pipelines any number of callers share.
     */
    public static final String HAND_OFF_FLOOR = "hand-off-floor";

    private Pipelines()
    {
    }

    /**
     * @param name     {@code ingot}, {@code djl-style}, {@code triton-style}, {@code direct} or {@link #HAND_OFF_FLOOR}
     *                 (one submitting thread)
     * @param width    FP32 elements per request
     * @param maxBatch the most requests per batch
     * @param idle     how Ingot's threads wait (the baselines block as their designs do)
     * @return the pipeline, started
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static Pipeline create(final String name, final long width, final int maxBatch, final IdleMode idle)
    {
        final ModelConfig config = BenchModels.identity(maxBatch, 1);
        return switch (name)
        {
            case "ingot" -> new IngotPipeline(config, width, idle);
            case "djl-style" -> new DjlStylePipeline(config, width, maxBatch, 0);
            case "triton-style" -> new TritonStylePipeline(config, width, maxBatch, 0, 1);
            case "direct" -> new DirectPipeline(config, width);
            case HAND_OFF_FLOOR -> new HandOffFloorPipeline(config, width, maxBatch);
            default -> throw new IllegalArgumentException("unknown pipeline '" + name + "'; expected one of "
                + NAMES + " or " + HAND_OFF_FLOOR);
        };
    }

    /**
     * The batchers alone: the same pipelines with nothing executed — each completes a formed batch's requests at once
     * — so that what is compared is accepting requests and forming batches (the "intake of the ring +
     * batcher"). Ingot's is its model scheduler and policy, without the core's validation, assembly and responses.
     *
     * @param name     {@code ingot}, {@code djl-style} or {@code triton-style}
     * @param maxBatch the most requests per batch
     * @param idle     how Ingot's threads wait
     * @return the pipeline, started
     * @throws IllegalArgumentException for an unknown name
     */
    public static Pipeline createBatcherOnly(final String name, final int maxBatch, final IdleMode idle)
    {
        final ModelConfig config = BenchModels.identity(maxBatch, 1);
        return switch (name)
        {
            case "ingot" -> new BatcherOnlyPipeline(config, maxBatch, idle);
            case "djl-style" -> new DjlStylePipeline(config, 1, maxBatch, 0, false);
            case "triton-style" -> new TritonStylePipeline(config, 1, maxBatch, 0, 1, false);
            default -> throw new IllegalArgumentException("unknown batcher '" + name
                + "'; expected ingot, djl-style or triton-style");
        };
    }

    /**
     * @param idle the idle mode under test
     * @return how long a caller spins before it parks while it waits for its response under that mode
     */
    public static long callerSpinNanos(final IdleMode idle)
    {
        return idle == IdleMode.SPINNING ? Long.MAX_VALUE : ResponseFuture.DEFAULT_SPIN_NANOS;
    }
}
