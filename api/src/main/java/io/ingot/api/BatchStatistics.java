package io.ingot.api;

/**
 * Statistics of the executions at one total batch size, counted once per execution, as Triton's
 * {@code batch_stats} entries. Immutable.
 *
 * @param batchSize     the total batch size of the executions
 * @param computeInput  executions and their total input-assembly time
 * @param computeInfer  executions and their total engine time
 * @param computeOutput executions and their total output-scatter time
 */
public record BatchStatistics(long batchSize, StatDuration computeInput, StatDuration computeInfer,
    StatDuration computeOutput)
{
}
