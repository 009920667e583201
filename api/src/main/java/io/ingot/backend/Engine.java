package io.ingot.backend;

/**
 * Executes batches for one model instance. Used by one thread at a time: the instance's.
 */
public interface Engine extends AutoCloseable
{
    /**
     * Executes one batch: reads its inputs and writes every requested output into memory obtained from
     * {@link Batch#allocateOutput}. An exception fails exactly this batch (each of its requests gets an INTERNAL
     * error naming the model and the cause); the instance then serves the next batch.
     *
     * @param batch the assembled batch
     * @throws Exception when execution fails
     */
    void execute(Batch batch) throws Exception;

    /**
     * @return true when the engine reads inputs from any memory, including heap segments; false when it needs native
     *         memory (the runtime then copies a single request's heap input into staging instead of passing it through)
     */
    default boolean acceptsHeapInputs()
    {
        return false;
    }

    /** Releases the instance's resources. */
    @Override
    default void close() throws Exception
    {
    }
}
