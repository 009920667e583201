package io.ingot.api;

/**
 * Receives the one final response of an accepted request. Called exactly once per accepted request, on an Ingot
 * thread, directly and with no lock held: usually the instance thread that ran the request's batch, which runs no
 * other batch until the listener returns (with {@code preserve_ordering} it may also be delivering the responses
 * behind it), so keep it short and never block. The listener owns the response and must
 * {@link InferenceResponse#close() close} it when done with its outputs.
 */
@FunctionalInterface
public interface ResponseListener
{
    /**
     * @param response the response: outputs, or an error
     */
    void onResponse(InferenceResponse response);
}
