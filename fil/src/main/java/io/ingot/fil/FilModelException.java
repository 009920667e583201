package io.ingot.fil;

/**
 * A FIL model version that cannot be loaded: a missing, corrupt or unsupported model file, a parameter Triton's FIL
 * backend would reject, a configuration that disagrees with the model, or a native library that cannot be loaded.
 * The message names the model and what was expected.
 */
public final class FilModelException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the model
     */
    public FilModelException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, naming the model
     * @param cause   the underlying failure
     */
    public FilModelException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
