package io.ingot.perf.pipeline;

import java.lang.foreign.Arena;

/**
 * A way to run the identity engine for many callers, under comparison: Ingot's core, the batchers it must beat
 * (DJL-Serving-style, Triton-style), and the engine called directly. Every pipeline serves one-row FP32 requests of a
 * fixed width, batches them (up to its maximum) through the same engine with one copy per byte in and out, and
 * completes {@link PipelineSlot}s the same way; the batcher-only forms ({@link Pipelines#createBatcherOnly}) complete
 * a formed batch's slots without running it. Thread-safe: any number of callers submit.
 */
public interface Pipeline extends AutoCloseable
{
    /** @return the pipeline's name in reports */
    String name();

    /**
     * @param arena owner of the slot's memory
     * @return a new reusable request
     */
    PipelineSlot newSlot(Arena arena);

    /**
     * Submits a request; its slot completes when its output row is written. The caller called
     * {@link PipelineSlot#begin()}.
     *
     * @param slot the request
     */
    void submit(PipelineSlot slot);

    /** @return requests executed so far */
    long requests();

    /** @return engine executions so far (requests / executions is the average batch size) */
    long executions();

    /** Stops the pipeline's threads; a request still queued is failed (its slot completes with the failure). */
    @Override
    void close();
}
