package io.ingot.stats;

import io.ingot.api.BatchStatistics;
import io.ingot.api.FailureReason;
import io.ingot.api.InferStatistics;
import io.ingot.api.ModelStatistics;
import io.ingot.api.StatDuration;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts one model version's requests and executions the way Triton does (statistics extension §5, metrics §4 of
 * {@code triton-scheduling.md}): queue counts equal success counts; each request is charged its batch's full compute
 * durations; batch statistics count each execution once at its total batch size. Updated lock-free from instance
 * and batcher threads; read by {@link #snapshot}.
 */
public final class ModelStatsRecorder
{
    private static final int SUCCESS = 0;
    private static final int FAIL = 1;
    private static final int QUEUE = 2;
    private static final int INPUT = 3;
    private static final int INFER = 4;
    private static final int OUTPUT = 5;
    private static final int KINDS = 6;

    // For each kind: [count, ns] pairs.
    private final AtomicLongArray durations = new AtomicLongArray(KINDS * 2);
    // Cumulative truncated microseconds: request, queue, input, infer, output.
    private final AtomicLongArray micros = new AtomicLongArray(5);
    private final AtomicLongArray failures = new AtomicLongArray(FailureReason.values().length);
    private final AtomicLong inferenceCount = new AtomicLong();
    private final AtomicLong executionCount = new AtomicLong();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong lastInferenceMillis = new AtomicLong();
    // For each batch size 1..max: [count, inputNs, inferNs, outputNs].
    private final AtomicLongArray batches;
    private final int maxBatchSize;

    /**
     * @param maxBatchSize the largest total batch size an execution can have
     */
    public ModelStatsRecorder(final int maxBatchSize)
    {
        this.maxBatchSize = Math.max(1, maxBatchSize);
        batches = new AtomicLongArray((this.maxBatchSize + 1) * 4);
    }

    /** A request was accepted: it is pending until it starts executing or fails. */
    public void requestAccepted()
    {
        pending.incrementAndGet();
    }

    /**
     * Requests started executing.
     *
     * @param requests how many
     */
    public void executionStarted(final int requests)
    {
        pending.addAndGet(-requests);
    }

    /**
     * One execution finished, successful or not.
     *
     * @param batchSize its total batch size
     * @param inputNs   input assembly time
     * @param inferNs   engine time
     * @param outputNs  output scatter time
     */
    public void batchExecuted(final int batchSize, final long inputNs, final long inferNs, final long outputNs)
    {
        executionCount.incrementAndGet();
        lastInferenceMillis.set(System.currentTimeMillis());
        final int size = Math.min(Math.max(batchSize, 1), maxBatchSize);
        final int base = size * 4;
        batches.incrementAndGet(base);
        batches.addAndGet(base + 1, inputNs);
        batches.addAndGet(base + 2, inferNs);
        batches.addAndGet(base + 3, outputNs);
    }

    /**
     * A request succeeded.
     *
     * @param batchSize {@code max(1, batch size)} of the request
     * @param requestNs accept to response
     * @param queueNs   accept to compute start
     * @param inputNs   its batch's input time
     * @param inferNs   its batch's engine time
     * @param outputNs  its batch's output time
     */
    public void requestSucceeded(final int batchSize, final long requestNs, final long queueNs, final long inputNs,
        final long inferNs, final long outputNs)
    {
        add(SUCCESS, requestNs);
        add(QUEUE, queueNs);
        add(INPUT, inputNs);
        add(INFER, inferNs);
        add(OUTPUT, outputNs);
        micros.addAndGet(0, requestNs / 1000);
        micros.addAndGet(1, queueNs / 1000);
        micros.addAndGet(2, inputNs / 1000);
        micros.addAndGet(3, inferNs / 1000);
        micros.addAndGet(4, outputNs / 1000);
        inferenceCount.addAndGet(batchSize);
    }

    /**
     * A request failed.
     *
     * @param requestNs  accept to response
     * @param reason     why
     * @param wasPending true when it failed before it started executing
     */
    public void requestFailed(final long requestNs, final FailureReason reason, final boolean wasPending)
    {
        add(FAIL, requestNs);
        failures.incrementAndGet(reason.ordinal());
        if (wasPending)
        {
            pending.decrementAndGet();
        }
    }

    /** @return requests accepted and not yet executing. */
    public long pendingRequests()
    {
        return pending.get();
    }

    /**
     * @param name    model name
     * @param version version string
     * @return a consistent-enough copy of the counters (each counter read once)
     */
    public ModelStatistics snapshot(final String name, final String version)
    {
        final InferStatistics inference = new InferStatistics(duration(SUCCESS), duration(FAIL), duration(QUEUE),
            duration(INPUT), duration(INFER), duration(OUTPUT), StatDuration.ZERO, StatDuration.ZERO);
        final List<BatchStatistics> batchStats = new ArrayList<>();
        for (int size = 1; size <= maxBatchSize; size++)
        {
            final long count = batches.get(size * 4);
            if (count > 0)
            {
                batchStats.add(new BatchStatistics(size, new StatDuration(count, batches.get(size * 4 + 1)),
                    new StatDuration(count, batches.get(size * 4 + 2)),
                    new StatDuration(count, batches.get(size * 4 + 3))));
            }
        }
        final Map<FailureReason, Long> failed = new EnumMap<>(FailureReason.class);
        for (final FailureReason reason : FailureReason.values())
        {
            failed.put(reason, failures.get(reason.ordinal()));
        }
        final Map<String, Long> microsByKind = Map.of("request", micros.get(0), "queue", micros.get(1),
            "compute_input", micros.get(2), "compute_infer", micros.get(3), "compute_output", micros.get(4));
        return new ModelStatistics(name, version, lastInferenceMillis.get(), inferenceCount.get(),
            executionCount.get(), inference, List.copyOf(batchStats), failed, pending.get(), microsByKind);
    }

    private void add(final int kind, final long ns)
    {
        durations.incrementAndGet(kind * 2);
        durations.addAndGet(kind * 2 + 1, ns);
    }

    private StatDuration duration(final int kind)
    {
        return new StatDuration(durations.get(kind * 2), durations.get(kind * 2 + 1));
    }
}
