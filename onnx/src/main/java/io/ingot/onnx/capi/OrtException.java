package io.ingot.onnx.capi;

import java.io.Serial;

/**
 * ONNX Runtime reported an error: the {@code OrtStatus} a C API function returned, with the function's name, the
 * {@code OrtErrorCode} and ONNX Runtime's message.
 */
public final class OrtException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int code;
    private final String ortMessage;

    /**
     * @param function   the C API function that failed
     * @param code       its {@code OrtErrorCode}
     * @param ortMessage ONNX Runtime's message
     */
    public OrtException(final String function, final int code, final String ortMessage)
    {
        super(OrtApi.codeName(code) + " from " + function + ": " + ortMessage);
        this.function = function;
        this.code = code;
        this.ortMessage = ortMessage;
    }

    /** @return the C API function that failed */
    public String function()
    {
        return function;
    }

    /** @return the {@code OrtErrorCode} */
    public int code()
    {
        return code;
    }

    /** @return ONNX Runtime's own message, without the function and code */
    public String ortMessage()
    {
        return ortMessage;
    }
}
