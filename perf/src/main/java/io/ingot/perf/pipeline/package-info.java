/**
 * The pipelines of the hot-path comparison, measured in the same run by JMH (benchmarks module) and by
 * {@code ingot perf baselines}: Ingot's core ({@link io.ingot.perf.pipeline.IngotPipeline}), a DJL-Serving-style
 * batcher ({@link io.ingot.perf.pipeline.DjlStylePipeline}), a Triton-style batcher
 * ({@link io.ingot.perf.pipeline.TritonStylePipeline}), the engine called directly
 * ({@link io.ingot.perf.pipeline.DirectPipeline}), and the two floors of a thread hand-off
 * ({@link io.ingot.perf.pipeline.RoundTrip}). All run the same identity engine with the same copies and complete their
 * callers the same way.
 */
package io.ingot.perf.pipeline;
