package io.ingot.tensorflow.savedmodel;

/**
 * A SavedModel that cannot be served: no {@code saved_model.pb}, bytes that are not a SavedModel, no MetaGraphDef
 * with the tag, no usable signature, a tensor of a type Triton has no name for. The message names the model, the
 * file and what was expected.
 */
public final class InvalidSavedModelException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the model and the file
     */
    public InvalidSavedModelException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, naming the model and the file
     * @param cause   the underlying failure
     */
    public InvalidSavedModelException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
