/**
 * JMH microbenchmarks of Ingot's in-process path, each with its baseline in the same class: request intake
 * ({@link io.ingot.benchmarks.jmh.RingIntakeBenchmark}), batch assembly
 * ({@link io.ingot.benchmarks.jmh.AssemblyBenchmark}) and the overhead of the whole core over a direct engine call
 * ({@link io.ingot.benchmarks.jmh.OverheadBenchmark}, also the allocation benchmark with {@code -prof gc}).
 *
 * <p>Run from the shaded jar: {@code java -jar benchmarks/target/benchmarks.jar RingIntake -t 2}. Every fork gets
 * {@code --enable-native-access=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED} (Agrona) through
 * {@code jvmArgsPrepend}, so that {@code -jvmArgsAppend} on the command line (a profiler, say) adds to them.
 */
package io.ingot.benchmarks.jmh;
