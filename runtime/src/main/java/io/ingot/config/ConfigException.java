package io.ingot.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A model configuration that cannot be read, completed, normalized or validated. The message names the model, the
 * field and what was expected; for text that does not parse it also names the source, line and column.
 *
 * <p>The {@link #category()} is Triton's status category for the failure: a bad configuration is
 * {@link Category#INVALID_ARG}, as Triton reports it.
 */
public final class ConfigException extends Exception
{
    private static final long serialVersionUID = 1L;

    /** Triton's status categories that configuration failures use. */
    public enum Category
    {
        /** The configuration (or the model directory) is wrong: Triton's INVALID_ARG. */
        INVALID_ARG("Invalid argument"),
        /** A file or directory that must exist does not: Triton's NOT_FOUND. */
        NOT_FOUND("Not found"),
        /** Reading the repository failed for a reason outside the configuration (I/O): Triton's INTERNAL. */
        INTERNAL("Internal");

        private final String statusText;

        Category(final String statusText)
        {
            this.statusText = statusText;
        }

        /** @return the category as Triton's {@code Status::CodeString} names it ("Invalid argument", ...) */
        public String statusText()
        {
            return statusText;
        }
    }

    private final Category category;
    private final String reason;
    private final String source;
    private final int line;
    private final int column;

    /**
     * A failure without a position in a file.
     *
     * @param category the status category
     * @param reason   what is wrong, naming model and field
     */
    public ConfigException(final Category category, final String reason)
    {
        this(category, reason, null, 0, 0, null);
    }

    /**
     * A failure caused by another exception (usually I/O), without a position.
     *
     * @param category the status category
     * @param reason   what is wrong, naming model and file
     * @param cause    the underlying failure
     */
    public ConfigException(final Category category, final String reason, final Throwable cause)
    {
        this(category, reason, null, 0, 0, cause);
    }

    /**
     * A failure at a position in a configuration text.
     *
     * @param category the status category
     * @param reason   what is wrong at that position
     * @param source   the file (or other source name) that holds the text
     * @param line     1-based line, or 0 when unknown
     * @param column   1-based column, or 0 when unknown
     * @param cause    the underlying failure, or {@code null}
     */
    public ConfigException(final Category category, final String reason, final String source, final int line,
        final int column, final Throwable cause)
    {
        this(category, reason, source, line, column, cause, "");
    }

    private ConfigException(final Category category, final String reason, final String source, final int line,
        final int column, final Throwable cause, final String lead)
    {
        super(lead + format(reason, source, line, column), cause);
        this.category = Objects.requireNonNull(category, "category");
        this.reason = Objects.requireNonNull(reason, "reason");
        this.source = source;
        this.line = line;
        this.column = column;
    }

    private static String format(final String reason, final String source, final int line, final int column)
    {
        if (source == null)
        {
            return reason;
        }
        if (line <= 0)
        {
            return source + ": " + reason;
        }
        return source + ": line " + line + ", column " + column + ": " + reason;
    }

    /** @return Triton's status category of this failure. */
    public Category category()
    {
        return category;
    }

    /** @return what is wrong, without the source and position prefix that {@link #getMessage()} carries. */
    public String reason()
    {
        return reason;
    }

    /** @return the file or source name the failure is located in, when it is located in one. */
    public Optional<String> source()
    {
        return Optional.ofNullable(source);
    }

    /** @return the 1-based line of the failure in {@link #source()}, or 0 when unknown. */
    public int line()
    {
        return line;
    }

    /** @return the 1-based column of the failure in {@link #source()}, or 0 when unknown. */
    public int column()
    {
        return column;
    }

    /**
     * Shorthand for an {@link Category#INVALID_ARG} failure.
     *
     * @param reason what is wrong, naming model and field
     * @return the exception
     */
    public static ConfigException invalid(final String reason)
    {
        return new ConfigException(Category.INVALID_ARG, reason);
    }

    /**
     * Text that is not a model configuration at all: the message starts with Triton's words for it
     * ({@code failed to read text proto from <source>}), then gives the line, column and reason Triton only logs.
     *
     * @param reason what is wrong at that position
     * @param source the file (or other source name) that holds the text
     * @param line   1-based line, or 0 when unknown
     * @param column 1-based column, or 0 when unknown
     * @param cause  the parser's failure, or {@code null}
     * @return an {@link Category#INVALID_ARG} failure
     */
    public static ConfigException unparsable(final String reason, final String source, final int line,
        final int column, final Throwable cause)
    {
        return new ConfigException(Category.INVALID_ARG, reason, source, line, column, cause,
            "failed to read text proto from ");
    }
}
