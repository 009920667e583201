package io.ingot.tensorflow;

/**
 * A TensorFlow model version that cannot be completed or loaded: a missing or corrupt SavedModel, a configuration
 * that disagrees with its signature, a type Triton has no name for, TensorFlow's native library missing. The message
 * names the model and what was expected.
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
