/**
 * Pieces the benchmarks share: a response listener a caller can wait on, a response allocator that reuses its memory,
 * a single-request {@link io.ingot.backend.Batch} for calling an engine directly, and model configurations.
 */
package io.ingot.perf.support;
