package io.ingot.api;

/**
 * Receives the one final response of an accepted request. Called exactly once per accepted request, on an Ingot
 * thread: keep it short and never block. The listener owns the response and must {@link InferenceResponse#close()
 * close} it when done with its outputs.
 */
@FunctionalInterface
public interface ResponseListener
{
    /**
     * @param response the response: outputs, or an error
     */
    void onResponse(InferenceResponse response);
}
