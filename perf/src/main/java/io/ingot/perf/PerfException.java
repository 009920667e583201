package io.ingot.perf;

/**
 * A failure {@code ingot perf} reports as one line and an exit code: {@link #USAGE} for bad input (a bad range, an
 * unknown option combination, a shape that does not fit the model), {@link #FAILURE} for what went wrong after the
 * input was accepted (an unreachable endpoint, an unknown model, a model that answers only errors).
 */
public final class PerfException extends RuntimeException
{
    /** Exit code for bad input, as picocli uses for a bad option. */
    public static final int USAGE = 2;
    /** Exit code for a failure. */
    public static final int FAILURE = 1;

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    private PerfException(final int exitCode, final String message, final Throwable cause)
    {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /**
     * @param message what was wrong with the input, and what was expected
     * @return a usage error
     */
    public static PerfException usage(final String message)
    {
        return new PerfException(USAGE, message, null);
    }

    /**
     * @param message what failed
     * @return a failure
     */
    public static PerfException failure(final String message)
    {
        return new PerfException(FAILURE, message, null);
    }

    /**
     * @param message what failed
     * @param cause   the underlying exception
     * @return a failure
     */
    public static PerfException failure(final String message, final Throwable cause)
    {
        return new PerfException(FAILURE, message, cause);
    }

    /** @return the process exit code. */
    public int exitCode()
    {
        return exitCode;
    }
}
