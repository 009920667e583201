package io.ingot.backend;

/**
 * One loaded model version of a backend: the state its instances share (weights, an engine, a session).
 */
public interface Backend extends AutoCloseable
{
    /**
     * Creates one model instance. Called once per instance of the model's {@code instance_group}s; each engine is
     * then used by exactly one instance thread.
     *
     * @param context the instance's identity and resources
     * @return the engine for that instance
     * @throws Exception when the instance cannot be created
     */
    Engine createEngine(InstanceContext context) throws Exception;

    /** Releases what the model holds, after every engine was closed. */
    @Override
    default void close() throws Exception
    {
    }
}
