/**
 * Ingot's JMH microbenchmarks ({@link io.ingot.benchmarks.jmh}), each measured beside its baseline in the same run.
 * The {@code ingot perf} load generator and the real-model baselines live in the perf module
 * ({@code io.ingot.perf}, {@code io.ingot.perf.baseline}). Results and the commands that produced them are in
 * {@code BENCHMARKS.md} at the repository root.
 */
package io.ingot.benchmarks;
