/**
 * Ingot's JMH microbenchmarks ({@link io.ingot.benchmarks.jmh}), each measured beside its baseline in the same run.
 * The {@code ingot perf} load generator and the real-model baselines live in the perf module
 * ({@code io.ingot.perf}, {@code io.ingot.perf.baseline}); the baselines of the core's own parts in
 * {@link io.ingot.benchmarks.ring}. Results and the commands that produced them: {@code BENCHMARKS.md} at the
 * repository root (every target's latest figure) and {@code docs/benchmarks/} (the runs).
 */
package io.ingot.benchmarks;
