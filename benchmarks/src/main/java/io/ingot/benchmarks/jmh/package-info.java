/**
 * JMH microbenchmarks of Ingot's in-process path, each beside its baselines in the same run: the round trip of one
 * request through Ingot and through the batchers it must beat ({@link io.ingot.benchmarks.jmh.OverheadBenchmark}),
 * the floors of a thread hand-off ({@link io.ingot.benchmarks.jmh.FloorBenchmark}), intake with many producers
 * ({@link io.ingot.benchmarks.jmh.IntakeBenchmark}) and the intake ring alone against the LMAX Disruptor's
 * ({@link io.ingot.benchmarks.jmh.RingBenchmark}), the application-facing future path and its allocation
 * ({@link io.ingot.benchmarks.jmh.IngotPathsBenchmark}, with {@code -prof gc}), and batch assembly against the memcpy
 * ceiling ({@link io.ingot.benchmarks.jmh.AssemblyBenchmark}). The pipelines are the perf module's
 * ({@code io.ingot.perf.pipeline}), so {@code ingot perf baselines} measures the same code under load.
 *
 * <p>Run from the shaded jar: {@code java -jar benchmarks/target/benchmarks.jar Overhead -t 1}. Every fork gets
 * {@code --enable-native-access=ALL-UNNAMED} (the one flag Ingot needs) through {@code jvmArgsPrepend}, so that
 * {@code -jvmArgsAppend} on the command line (a profiler, say) adds to it.
 */
package io.ingot.benchmarks.jmh;
