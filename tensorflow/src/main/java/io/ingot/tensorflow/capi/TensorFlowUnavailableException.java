package io.ingot.tensorflow.capi;

/**
 * TensorFlow's native library cannot be used: it is not where {@link LibraryLocation} looks, it cannot be extracted,
 * or it does not load (a missing dependency, another architecture). The message names the library and the reason.
 * Every TensorFlow call throws it, so a model that needs TensorFlow fails to load with it and the others serve on.
 */
public final class TensorFlowUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message the library and why it cannot be used
     */
    public TensorFlowUnavailableException(final String message)
    {
        super(message);
    }

    /**
     * @param message the library and why it cannot be used
     * @param cause   the underlying failure
     */
    public TensorFlowUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
