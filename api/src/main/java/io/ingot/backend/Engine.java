package io.ingot.backend;

/**
 * Executes batches for one model instance.
 *
 * <p>Threads: {@link #execute} is called one batch at a time, so an engine needs no synchronization of its own
 * state; state shared with other engines of the same {@link Backend} must be thread-safe. The calls come from the
 * instance's thread, unless the engine says it {@link #runsOnAnyThread() runs on any thread}: then a caller that
 * found the instance idle may run a batch on its own thread (still one call at a time, each call ordered after the
 * previous one). {@link #acceptsHeapInputs()} is asked once, on the loading thread, when the instance is created.
 * {@link #close()} is called once: by the instance thread after its last batch, or by the loading thread, without
 * any batch having run, when the model fails to load.
 *
 * <p>The call is synchronous: {@code execute} returns when every requested output is written, and the engine keeps
 * no reference to the batch, its inputs or its output memory afterwards (the runtime reuses the staging memory for
 * the next batch, and the output memory belongs to the responses), except the response senders of a decoupled
 * model's requests it {@link ResponseSender#keepOpen kept open}. It may block (on a GPU stream, say); that blocks only
 * its instance.
 */
public interface Engine extends AutoCloseable
{
    /**
     * Executes one batch: reads its inputs and writes every requested output into memory obtained from
     * {@link Batch#allocateOutput}. An exception (or error) fails exactly this batch (each of its requests gets an
     * INTERNAL error naming the model, the instance and the exception's message); the instance then serves the next
     * batch. A requested output that was never allocated fails each request that asked for it with an INTERNAL
     * error naming the output.
     *
     * @param batch the assembled batch, valid only during this call
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

    /**
     * Whether the engine answers each request of a one-response model itself, through {@link Batch#responseSender},
     * instead of writing batch outputs with {@link Batch#allocateOutput}: each request then gets exactly one response
     * with outputs of the shapes and data types the engine gives ({@link ResponseSender#send send(true)} or an error
     * through {@link ResponseSender#sendError}), so that one request's error does not fail its batch. Triton's Python
     * backend answers so. Asked once, on the loading thread, when the instance is created; decoupled models answer
     * through the senders whatever this says.
     *
     * @return true to answer through response senders
     */
    default boolean respondsPerRequest()
    {
        return false;
    }

    /**
     * Whether {@link #execute} may be called from any thread, one call at a time — not only from the instance's own
     * thread (and the loading thread, which runs the warm-up): then a caller of
     * {@code InferenceCore.submitAndRun} that finds the instance idle runs the batch on its own thread, and its
     * request costs no wake-up of the instance thread. Say true only when nothing the engine does depends on the
     * calling thread: no thread-local state it relies on or leaves behind (a library's per-thread mode, a current
     * device), no thread-confined memory, and no call that blocks for long (the caller's thread is lent, not an
     * instance's). Asked once, on the loading thread. Ignored for decoupled models, for engines that
     * {@link #respondsPerRequest() respond per request}, for sequence-batched models and under the rate limiter:
     * their batches always run on the instance's thread.
     *
     * @return true when any thread may execute batches (default false)
     */
    default boolean runsOnAnyThread()
    {
        return false;
    }

    /** Releases the instance's resources. An exception is logged and ignored. */
    @Override
    default void close() throws Exception
    {
    }
}
