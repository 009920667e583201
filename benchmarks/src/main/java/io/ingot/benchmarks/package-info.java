/**
 * Ingot's benchmarks, each measured beside its baseline in the same run: JMH microbenchmarks of the core
 * ({@link io.ingot.benchmarks.jmh}), the {@code ingot perf} load generator ({@link io.ingot.perf}) and the
 * real-model comparison against ONNX Runtime called directly ({@link io.ingot.perf.baseline}). Results and the
 * commands that produced them are in {@code BENCHMARKS.md} at the repository root.
 */
package io.ingot.benchmarks;
