package io.ingot.benchmarks.onnxjni;

/**
 * A model version that cannot be loaded or auto-completed: a missing or unreadable model file, or a configuration
 * that disagrees with the model. The message names the model and what is wrong.
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
