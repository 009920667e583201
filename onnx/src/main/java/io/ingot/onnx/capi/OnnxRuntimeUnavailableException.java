package io.ingot.onnx.capi;

import java.io.Serial;

/** ONNX Runtime's native library cannot be found, loaded or bound; the message says why and what to do. */
public final class OnnxRuntimeUnavailableException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message the reason
     */
    public OnnxRuntimeUnavailableException(final String message)
    {
        super(message);
    }

    /**
     * @param message the reason
     * @param cause   the underlying failure
     */
    public OnnxRuntimeUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
