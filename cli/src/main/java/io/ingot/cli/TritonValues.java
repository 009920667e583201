package io.ingot.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Reads option values the way Triton's {@code tritonserver} command line does ({@code src/command_line_parser.cc}),
 * with Triton's error text first. Stateless; the converters are thread-safe.
 */
final class TritonValues
{
    private TritonValues()
    {
    }

    /**
     * Triton's boolean: {@code true}, {@code on}, {@code 1}, {@code false}, {@code off}, {@code 0}, in any case.
     *
     * @param text the value
     * @return its truth
     * @throws TypeConversionException with Triton's message, for any other text
     */
    static boolean parseBoolean(final String text)
    {
        final String value = text.toLowerCase(Locale.ROOT);
        return switch (value)
        {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw new TypeConversionException("invalid value for bool option: " + text
                + " (expected true, false, on, off, 1 or 0)");
        };
    }

    /**
     * Triton's auto-complete switches: auto-complete is on unless {@code --disable-auto-complete-config} is given or
     * the deprecated {@code --strict-model-config} is true. Prints Triton's warnings: the deprecation whenever
     * {@code --strict-model-config} is given, and the override when it is false beside
     * {@code --disable-auto-complete-config}.
     *
     * @param strictGiven   whether {@code --strict-model-config} was on the command line
     * @param strict        its value (false when not given)
     * @param disable       whether {@code --disable-auto-complete-config} was given
     * @param err           where the warnings go
     * @return whether configurations may be auto-completed
     */
    static boolean autoCompleteConfig(final boolean strictGiven, final boolean strict, final boolean disable,
        final PrintStream err)
    {
        if (strictGiven)
        {
            err.println("Warning: '--strict-model-config' has been deprecated! Please use "
                + "'--disable-auto-complete-config' instead.");
            if (disable && !strict)
            {
                err.println("Warning: Overriding deprecated '--strict-model-config' from False to True in favor of "
                    + "'--disable-auto-complete-config'!");
            }
        }
        return !(strict || disable);
    }

    /** Picocli's converter for a {@code Boolean} option in Triton's spellings ({@link #parseBoolean}). */
    static final class BooleanValue implements ITypeConverter<Boolean>
    {
        @Override
        public Boolean convert(final String value)
        {
            return parseBoolean(value);
        }
    }

    /**
     * Triton's {@code --log-verbose} value: {@code true} is 1, {@code false} is 0, otherwise an integer of at least 0.
     *
     * @param text the value
     * @return the verbose level
     * @throws TypeConversionException for anything else
     */
    static int parseVerboseLevel(final String text)
    {
        final String value = text.toLowerCase(Locale.ROOT);
        if (value.equals("true"))
        {
            return 1;
        }
        if (value.equals("false"))
        {
            return 0;
        }
        final int level = parseInt(text);
        if (level < 0)
        {
            throw new TypeConversionException("Invalid option value. Got " + text + " (a verbose level is 0 or more)");
        }
        return level;
    }

    /**
     * @param text an integer option's value
     * @return the integer
     * @throws TypeConversionException with Triton's messages for text that is no integer or out of range
     */
    static int parseInt(final String text)
    {
        try
        {
            return Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException e)
        {
            if (text.trim().matches("[+-]?\\d+"))
            {
                throw new TypeConversionException("Provided option value is out of bound. Got " + text);
            }
            throw new TypeConversionException("Invalid option value. Got " + text);
        }
    }

    /**
     * picocli converter for Triton's booleans: checks the value and gives it as {@code "true"} or {@code "false"}.
     * The options keep it as text because picocli consumes a separate value ({@code --flag off}) only for options
     * that are not of a boolean type, and Triton accepts that form.
     */
    static final class BooleanText implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            return Boolean.toString(parseBoolean(value));
        }
    }

    /** picocli converter for Triton's integers. */
    static final class IntConverter implements ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return parseInt(value);
        }
    }
}
