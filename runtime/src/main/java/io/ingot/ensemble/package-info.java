/**
 * Triton's ensembles: the checks an ensemble passes against the models it is built from when it loads
 * ({@link io.ingot.ensemble.EnsembleLinker}), the order in which a repository's ensembles load after their composing
 * models ({@link io.ingot.ensemble.EnsembleOrder}), and the scheduler that runs an ensemble request step by step,
 * each step as soon as its inputs exist, through the composing models' own schedulers
 * ({@link io.ingot.ensemble.EnsembleScheduler}).
 */
package io.ingot.ensemble;
