package io.ingot.api;

/**
 * Receives an {@link InferenceBatch} once every request in it has its one response: called exactly once per
 * submission, on the thread that completed the batch's last request (an Ingot thread, or the submitting thread when
 * every request of the batch was refused or answered during the submission), directly and with no lock held. Keep it
 * short and never block: an instance thread runs no other batch until it returns. The responses belong to the
 * listener's side, which must close each one ({@link InferenceBatch#closeResponses()}, also from the listener;
 * the owner clears and resubmits the batch after it is done, not from the listener); an exception it throws is
 * logged (rate-limited), counted in {@link InferenceBatch#listenerFailures()}, and loses nothing: the batch stays done
 * and its responses stay in it.
 */
@FunctionalInterface
public interface BatchListener
{
    /** A listener that does nothing: the caller {@link InferenceBatch#await() awaits} the batch instead. */
    BatchListener NONE = batch ->
    {
    };

    /**
     * @param batch the batch, {@link InferenceBatch#isDone() done}: {@link InferenceBatch#response(int)} holds each
     *              request's response, outputs or an error
     */
    void onBatchDone(InferenceBatch batch);
}
