package io.ingot.tensorflow.capi;

/**
 * A TensorFlow C API call failed: the {@code TF_Status} it filled in had a code other than {@code TF_OK}. Carries
 * the call, the code and TensorFlow's own message.
 */
public final class TensorFlowException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int code;

    /**
     * @param call    the C function that failed
     * @param code    its {@code TF_Code}
     * @param message TensorFlow's message ({@code TF_Message})
     */
    public TensorFlowException(final String call, final int code, final String message)
    {
        super(call + " failed with " + TensorFlowC.codeName(code) + ": " + message);
        this.code = code;
    }

    /** @return the {@code TF_Code} */
    public int code()
    {
        return code;
    }
}
