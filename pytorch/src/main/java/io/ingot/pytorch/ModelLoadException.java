package io.ingot.pytorch;

/**
 * A TorchScript model version that cannot be loaded: a missing or corrupt {@code model.pt}, a configuration that
 * disagrees with the model's {@code forward}, a datatype libtorch cannot take through DJL, or libtorch itself
 * missing. The message names the model and what was expected.
 */
public final class ModelLoadException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the model
     */
    public ModelLoadException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, naming the model
     * @param cause   the underlying failure
     */
    public ModelLoadException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
