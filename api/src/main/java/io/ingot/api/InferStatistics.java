package io.ingot.api;

/**
 * Per-request statistics of one model version, as Triton's statistics extension reports them under
 * {@code inference_stats}. Queue counts equal success counts; compute counts exclude cache hits. Immutable.
 *
 * @param success       successful requests and their total request duration
 * @param fail          failed requests and their total request duration
 * @param queue         successful requests and their total queue time (scheduler entry to compute start)
 * @param computeInput  per request, the duration of its batch's input assembly
 * @param computeInfer  per request, the duration of its batch's execution
 * @param computeOutput per request, the duration of its batch's output scatter
 * @param cacheHit      response-cache hits and the time their lookups took (included in success and queue)
 * @param cacheMiss     response-cache misses of cacheable requests and the time their lookups and inserts took
 */
public record InferStatistics(StatDuration success, StatDuration fail, StatDuration queue,
    StatDuration computeInput, StatDuration computeInfer, StatDuration computeOutput, StatDuration cacheHit,
    StatDuration cacheMiss)
{
}
