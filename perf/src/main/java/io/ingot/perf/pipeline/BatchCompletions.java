package io.ingot.perf.pipeline;

import java.util.concurrent.atomic.LongAdder;

/**
 * How every baseline ends a batch it formed: runs it through its {@link EngineBatch} (or not, for a batcher alone),
 * counts it, and completes its slots — or, when the batch throws, fails each of them with a message naming the
 * pipeline. Thread-safe: the counters are adders, and each batch's slots are its caller's (the pipeline's worker).
 */
final class BatchCompletions
{
    private final String pipeline;
    private final LongAdder requests = new LongAdder();
    private final LongAdder executions = new LongAdder();

    /** @param pipeline the pipeline's name, for failure messages */
    BatchCompletions(final String pipeline)
    {
        this.pipeline = pipeline;
    }

    /**
     * @param batch the engine batch, or {@code null} to complete the slots without running them
     * @param slots the batch's requests
     * @param count how many of {@code slots}
     */
    void run(final EngineBatch batch, final PipelineSlot[] slots, final int count)
    {
        try
        {
            if (batch != null)
            {
                batch.run(slots, count);
            }
            executions.increment();
            requests.add(count);
            for (int i = 0; i < count; i++)
            {
                slots[i].complete();
            }
        }
        catch (final Exception ex)
        {
            for (int i = 0; i < count; i++)
            {
                slots[i].fail(pipeline + " batch failed: " + ex.getMessage());
            }
        }
    }

    /** @return requests completed so far */
    long requests()
    {
        return requests.sum();
    }

    /** @return batches run so far */
    long executions()
    {
        return executions.sum();
    }
}
