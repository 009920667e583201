/**
 * Real-model baselines measured in the same run as Ingot: MiniLM through ONNX Runtime called directly (one
 * {@code run} per request, and ideally pre-formed batches) against Ingot serving it with dynamic batching, and the
 * {@code cost} model, whose ideal throughput is computable, against that ideal. The entry point is
 * {@link io.ingot.perf.baseline.Comparison}.
 */
package io.ingot.perf.baseline;
