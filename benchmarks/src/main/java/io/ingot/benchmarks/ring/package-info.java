/**
 * Baselines of the core's own parts, kept only to be measured against them: {@link
 * io.ingot.benchmarks.ring.DisruptorRequestRing}, the LMAX Disruptor's ring with the intake ring's methods
 * ({@code docs/benchmarks/ring-choice.md}). Nothing outside this module uses them.
 */
package io.ingot.benchmarks.ring;
