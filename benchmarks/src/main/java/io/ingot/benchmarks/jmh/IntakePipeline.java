package io.ingot.benchmarks.jmh;

/**
 * Where the intake benchmark's producers put requests: a queue and the thread that takes them out in batches.
 */
interface IntakePipeline extends AutoCloseable
{
    /**
     * Creates a slot suited to this pipeline.
     *
     * @return a free slot
     */
    IntakeSlot newSlot();

    /**
     * Submits a free slot; the pipeline frees it once a batch containing it was taken out.
     *
     * @param slot the slot, free
     */
    void submit(IntakeSlot slot);

    /** Stops the pipeline's threads. */
    @Override
    void close();
}
