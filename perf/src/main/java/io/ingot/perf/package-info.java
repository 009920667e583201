/**
 * {@code ingot perf}: a load generator modeled on Triton's perf_analyzer. It drives a model — in this process
 * ({@code --model-repository}), over KServe v2 HTTP ({@code -i http}) or gRPC ({@code -i grpc}), or through Ingot's
 * shared-memory IPC ({@code -i ipc}) — in a closed loop over a concurrency range or in an open loop at request rates
 * (constant or Poisson), measures windows until the last three agree within a percentage, and reports HdrHistogram
 * latency percentiles, throughput and the server's average batch size, as a table, CSV, JSON and PNG plots.
 * {@code ingot perf transports} compares the round-trip latency of the in-process API, IPC, HTTP and gRPC to one
 * core in one interleaved run.
 *
 * <p>The command is {@link io.ingot.perf.PerfCommand}, a picocli command that the {@code ingot} command line
 * mounts as {@code ingot perf}; it also runs on its own.
 */
package io.ingot.perf;
