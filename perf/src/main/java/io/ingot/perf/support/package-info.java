/**
 * Pieces the load generator and the JMH benchmarks share: a response listener a caller can wait on
 * ({@link io.ingot.perf.support.Completion}), a response allocator that reuses its memory
 * ({@link io.ingot.perf.support.ReusingResponseAllocator}), and model configurations
 * ({@link io.ingot.perf.support.BenchModels}).
 */
package io.ingot.perf.support;
