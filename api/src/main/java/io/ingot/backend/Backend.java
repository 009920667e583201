package io.ingot.backend;

/**
 * One loaded model version of a backend: the state its instances share (weights, an engine, a session).
 *
 * <p>Lifecycle and threads: the core calls {@link #createEngine} once per instance, in turn, on the thread that
 * loaded the version, before any instance runs; then each engine runs on its own instance thread, so whatever the
 * engines share through their backend (a session, weights) is used by several threads at once and must be
 * thread-safe. {@link #close()} is called once, by the thread that stops the version (core close, unload, reload,
 * or a failed load), after every engine created from it has been closed. Owned by the core from
 * {@link BackendFactory#load} until then.
 */
public interface Backend extends AutoCloseable
{
    /**
     * Creates one model instance. Called once per instance of the model's non-passive {@code instance_group}s; each
     * engine is then used by exactly one instance thread.
     *
     * @param context the instance's identity and resources
     * @return the engine for that instance, owned by the core until it closes it
     * @throws Exception when the instance cannot be created; the core then closes the engines already created and
     *                   this backend, and the model fails to load with the exception's message
     */
    Engine createEngine(InstanceContext context) throws Exception;

    /**
     * Releases what the model holds, after every engine was closed. When a serving version stops, an exception from
     * here is logged and ignored.
     */
    @Override
    default void close() throws Exception
    {
    }
}
