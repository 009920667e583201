package io.ingot.cli;

/**
 * A failure the command line reports as one message, without a stack trace, and exits with {@link #exitCode()}:
 * {@link #USAGE} for bad input (a wrong tensor name, a wrong element count, an unparsable value), {@link #FAILURE}
 * for what went wrong after the input was accepted.
 */
final class CliException extends RuntimeException
{
    /** Exit code for bad input: the same as picocli's for a bad option. */
    static final int USAGE = 2;
    /** Exit code for a failure. */
    static final int FAILURE = 1;

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    /**
     * @param exitCode the process exit code
     * @param message  what went wrong and what was expected
     */
    CliException(final int exitCode, final String message)
    {
        super(message);
        this.exitCode = exitCode;
    }

    /**
     * @param message what was wrong with the input
     * @return a usage error
     */
    static CliException usage(final String message)
    {
        return new CliException(USAGE, message);
    }

    /**
     * @param message what failed
     * @return a failure
     */
    static CliException failure(final String message)
    {
        return new CliException(FAILURE, message);
    }

    /** @return the process exit code. */
    int exitCode()
    {
        return exitCode;
    }
}
