package io.ingot.api;

/**
 * Receives every response of an accepted request, each with its final flag: the form of listener a decoupled model
 * ({@code model_transaction_policy { decoupled: true }}) needs, since such a model sends zero, one or many responses
 * per request, as Triton's C API callback receives them ({@code TRITONSERVER_InferenceResponseCompleteFn_t} with
 * {@code TRITONSERVER_RESPONSE_COMPLETE_FINAL}).
 *
 * <p>Contract: for each accepted request, zero or more calls with {@code last == false}, then exactly one call with
 * {@code last == true}, also on engine failure, cancellation, timeout, unload and shutdown (then the last call
 * carries the error). A non-decoupled model's request gets exactly one call, its response with {@code last == true}.
 * Calls for one request never overlap and arrive in the order the model sent them; they come on Ingot threads,
 * directly and with no lock held (see {@link InferenceCore}), so keep them short and never block.
 *
 * <p>The final call's {@code response} is {@code null} when the model only marked the request complete without a
 * response of its own (Triton's flags-only FINAL, {@code TRITONBACKEND_ResponseFactorySendFlags}): that is how
 * a transport tells an empty final, which Triton's gRPC stream drops unless the client asked for it, from a final
 * response that merely has no outputs. Every non-null response is owned by the listener, which must
 * {@link InferenceResponse#close() close} it. The request is no longer in flight when the final call runs, so that
 * call may refill and submit it again.
 */
@FunctionalInterface
public interface ResponseStreamListener
{
    /**
     * @param response the response (outputs, or an error); {@code null} only when {@code last} and the model sent
     *                 the final flag alone
     * @param last     true for the request's final call
     */
    void onResponse(InferenceResponse response, boolean last);
}
