package io.ingot.api;

import java.util.List;
import java.util.Map;

/**
 * Statistics of one model version: the fields of Triton's statistics extension, plus the counters Triton's
 * Prometheus metrics are built from.
 *
 * <p>A snapshot built for each call: the core keeps no reference to it and never changes it afterwards, so it may be
 * kept and read from any thread once safely published.
 *
 * @param name                 model name
 * @param version              version, as a string (as Triton reports it)
 * @param lastInference        milliseconds since the epoch of the last batch statistics update, 0 if none
 * @param inferenceCount       sum of {@code max(1, batch_size)} over successful requests
 * @param executionCount       number of batch executions
 * @param inferenceStats       per-request statistics
 * @param batchStats           per-batch-size statistics, ascending by batch size
 * @param failures             failed requests by reason (every reason present, zero or not)
 * @param pendingRequests      requests accepted and not yet executing
 * @param durationsMicros      cumulative microsecond counters, each request's duration truncated to whole µs
 *                             (Triton's {@code nv_inference_*_duration_us}), keyed {@code request}, {@code queue},
 *                             {@code compute_input}, {@code compute_infer}, {@code compute_output}
 */
public record ModelStatistics(String name, String version, long lastInference, long inferenceCount,
    long executionCount, InferStatistics inferenceStats, List<BatchStatistics> batchStats,
    Map<FailureReason, Long> failures, long pendingRequests, Map<String, Long> durationsMicros)
{
}
