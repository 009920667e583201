/**
 * Per-model-version statistics, counted as Triton counts them (statistics extension and Prometheus metrics): each
 * instance writes its own single-writer {@link io.ingot.stats.StatsCell}, a batch at a time under a sequence lock,
 * the rare other writers share one atomic cell, and {@link io.ingot.stats.ModelStatsRecorder#snapshot} sums them, a
 * batch whole or not at all.
 */
package io.ingot.stats;
