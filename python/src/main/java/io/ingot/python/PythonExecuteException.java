package io.ingot.python;

/**
 * A batch that fails while its stub stays healthy: {@code execute} raised, returned something Triton's Python
 * backend refuses, answered a request with an error, or returned an output of the wrong name, data type or shape.
 * The message names the model (and the request and output where there is one).
 */
final class PythonExecuteException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong
     */
    PythonExecuteException(final String message)
    {
        super(message);
    }
}
