/**
 * {@code ingot tune}: sweeps a model's scheduling configuration (instance count, batch sizes, queue delay, config
 * variants given as {@code parameters}) in a core of this process, measures each candidate with the perf load
 * generator, and writes the candidates' CSV, a Pareto-front plot and the best configuration as a
 * {@code config.pbtxt} diff.
 */
package io.ingot.perf.tune;
