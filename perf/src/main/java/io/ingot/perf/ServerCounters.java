package io.ingot.perf;

/**
 * A model's cumulative server-side counters, from its statistics (Triton's statistics extension): differences of two
 * readings give the average batch size and where the server spent each request's time.
 *
 * @param inferenceCount  inferences (batch rows) executed
 * @param executionCount  batch executions
 * @param successCount    successful requests
 * @param requestNs       their total time in the server (queue and compute)
 * @param queueNs         their total queue time
 * @param computeInputNs  their total input-assembly time
 * @param computeInferNs  their total engine time
 * @param computeOutputNs their total output time
 */
public record ServerCounters(long inferenceCount, long executionCount, long successCount, long requestNs,
    long queueNs, long computeInputNs, long computeInferNs, long computeOutputNs)
{
    /**
     * @param earlier a reading taken before this one
     * @return the counts between the two readings
     */
    public ServerCounters minus(final ServerCounters earlier)
    {
        return new ServerCounters(inferenceCount - earlier.inferenceCount, executionCount - earlier.executionCount,
            successCount - earlier.successCount, requestNs - earlier.requestNs, queueNs - earlier.queueNs,
            computeInputNs - earlier.computeInputNs, computeInferNs - earlier.computeInferNs,
            computeOutputNs - earlier.computeOutputNs);
    }

    /**
     * @param other counts of another window
     * @return the sum
     */
    public ServerCounters plus(final ServerCounters other)
    {
        return new ServerCounters(inferenceCount + other.inferenceCount, executionCount + other.executionCount,
            successCount + other.successCount, requestNs + other.requestNs, queueNs + other.queueNs,
            computeInputNs + other.computeInputNs, computeInferNs + other.computeInferNs,
            computeOutputNs + other.computeOutputNs);
    }

    /** @return inferences per execution, or NaN when nothing executed. */
    public double averageBatchSize()
    {
        return executionCount == 0 ? Double.NaN : (double)inferenceCount / executionCount;
    }

    /**
     * @param ns a total over the successful requests
     * @return its mean per request in microseconds, or NaN when no request succeeded
     */
    public double perRequestMicros(final long ns)
    {
        return successCount == 0 ? Double.NaN : ns / 1000.0 / successCount;
    }
}
