/** Placeholder package of the benchmarks module; see the module README. */
package io.ingot.benchmarks;
