package io.ingot.stats;

import io.ingot.api.FailureReason;

/**
 * Where each counter of a model version's statistics sits in a {@link StatsCell}'s array: duration pairs
 * ({@code count, ns}) per kind, cumulative microseconds per kind (Triton's metrics truncate per request), failures per
 * reason, inference and execution counts, the last inference time, and per batch size {@code [count, inputNs,
 * inferNs, outputNs]}. Immutable.
 */
final class StatsLayout
{
    static final int SUCCESS = 0;
    static final int FAIL = 1;
    static final int QUEUE = 2;
    static final int INPUT = 3;
    static final int INFER = 4;
    static final int OUTPUT = 5;
    static final int CACHE_HIT = 6;
    static final int CACHE_MISS = 7;
    static final int KINDS = 8;

    static final int DURATIONS = 0;
    static final int MICROS = DURATIONS + KINDS * 2;
    static final int FAILURES = MICROS + 5;
    static final int INFERENCES = FAILURES + FailureReason.values().length;
    static final int EXECUTIONS = INFERENCES + 1;
    static final int LAST_INFERENCE = EXECUTIONS + 1;
    static final int BATCHES = LAST_INFERENCE + 1;

    private final int maxBatchSize;

    StatsLayout(final int maxBatchSize)
    {
        this.maxBatchSize = Math.max(1, maxBatchSize);
    }

    int maxBatchSize()
    {
        return maxBatchSize;
    }

    /** @return the index of batch size {@code size}'s four counters (sizes out of range count as the nearest) */
    int batchBase(final int size)
    {
        return BATCHES + Math.min(Math.max(size, 1), maxBatchSize) * 4;
    }

    int length()
    {
        return BATCHES + (maxBatchSize + 1) * 4;
    }
}
