package io.ingot.api;

/**
 * Thrown by the one-response forms of {@link InferenceCore#submit} for a decoupled model
 * ({@code model_transaction_policy { decoupled: true }}), which may send zero or many responses per request and so
 * cannot keep a {@link ResponseListener}'s one-response contract: submit such requests with a
 * {@link ResponseStreamListener}. UNSUPPORTED, as Triton's frontends answer a one-response call to such a model;
 * a transport may replace the message with its own (Triton's HTTP and gRPC texts differ) by catching this type.
 */
public final class DecoupledModelException extends InferenceException
{
    private static final long serialVersionUID = 1L;

    private final String model;

    /**
     * @param model the decoupled model's name
     */
    public DecoupledModelException(final String model)
    {
        super(ErrorCode.UNSUPPORTED, "model '" + model + "' has a decoupled transaction policy and may send zero or "
            + "many responses per request: submit its requests with a ResponseStreamListener");
        this.model = model;
    }

    /** @return the decoupled model's name */
    public String model()
    {
        return model;
    }
}
