package io.ingot.server.trace;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.util.List;

/**
 * The fields one trace-setting request changes, parsed with Triton's rules and messages ({@code HandleTrace} of
 * Triton's HTTP server): each field is left alone, cleared (JSON {@code null}, or an empty gRPC value list: the
 * model then follows the global setting), or set. Immutable.
 *
 * @param clearLevel        whether {@code trace_level} is cleared
 * @param level             the new level bits ({@link #TIMESTAMPS}, {@link #TENSORS}; 0 = OFF), or {@code null}
 * @param clearRate         whether {@code trace_rate} is cleared
 * @param rate              the new rate, or {@code null}
 * @param clearCount        whether {@code trace_count} is cleared
 * @param count             the new count, or {@code null}
 * @param clearLogFrequency whether {@code log_frequency} is cleared
 * @param logFrequency      the new log frequency, or {@code null}
 */
record TraceUpdate(boolean clearLevel, Integer level, boolean clearRate, Long rate, boolean clearCount,
    Integer count, boolean clearLogFrequency, Long logFrequency)
{
    /** Level bit of TIMESTAMPS (Triton's {@code TRITONSERVER_TRACE_LEVEL_TIMESTAMPS}). */
    static final int TIMESTAMPS = 0x4;
    /** Level bit of TENSORS (Triton's {@code TRITONSERVER_TRACE_LEVEL_TENSORS}). */
    static final int TENSORS = 0x8;

    private static final long UINT32_MAX = 0xFFFF_FFFFL;

    /**
     * Parses one request's values. A value list of {@code null} means the field is absent, an empty list that it is
     * cleared.
     *
     * @param file         {@code trace_file}'s values
     * @param level        {@code trace_level}'s values
     * @param rate         {@code trace_rate}'s values
     * @param count        {@code trace_count}'s values
     * @param logFrequency {@code log_frequency}'s values
     * @return the update
     * @throws InferenceException INVALID_ARG or UNSUPPORTED with Triton's message
     */
    static TraceUpdate parse(final List<String> file, final List<String> level, final List<String> rate,
        final List<String> count, final List<String> logFrequency)
    {
        if (file != null)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED,
                "trace file location can not be updated through network protocol");
        }
        Integer levelBits = null;
        if (level != null && !level.isEmpty())
        {
            int bits = 0;
            for (final String name : level)
            {
                switch (name)
                {
                    case "OFF" ->
                    {
                        if (level.size() != 1)
                        {
                            throw invalid("Expect only one trace level 'OFF' is specified");
                        }
                    }
                    case "TIMESTAMPS" -> bits |= TIMESTAMPS;
                    case "TENSORS" -> bits |= TENSORS;
                    // Triton ignores an unknown level; a typo would then silently change nothing.
                    default -> throw invalid("Unable to parse 'trace_level', got: " + name
                        + " (expected OFF, TIMESTAMPS or TENSORS)");
                }
            }
            levelBits = bits;
        }
        final Long rateValue = unsigned("trace_rate", rate);
        Integer countValue = null;
        if (count != null && !count.isEmpty())
        {
            final String text = single("trace_count", count);
            final long parsed = integer("trace_count", text);
            if (parsed > Integer.MAX_VALUE)
            {
                throw invalid("Unable to parse 'trace_count', value is out of range [ " + TraceSetting.MIN_TRACE_COUNT
                    + ", " + Integer.MAX_VALUE + " ], got: " + text);
            }
            if (parsed < TraceSetting.MIN_TRACE_COUNT)
            {
                throw invalid("Unable to parse 'trace_count'. Expecting value >= " + TraceSetting.MIN_TRACE_COUNT
                    + ", got:" + text);
            }
            countValue = (int)parsed;
        }
        final Long frequencyValue = unsigned("log_frequency", logFrequency);
        return new TraceUpdate(level != null && level.isEmpty(), levelBits, rate != null && rate.isEmpty(),
            rateValue, count != null && count.isEmpty(), countValue,
            logFrequency != null && logFrequency.isEmpty(), frequencyValue);
    }

    private static Long unsigned(final String field, final List<String> values)
    {
        if (values == null || values.isEmpty())
        {
            return null;
        }
        final String text = single(field, values);
        final long parsed = integer(field, text);
        if (parsed < 0 || parsed > UINT32_MAX)
        {
            throw invalid("Unable to parse '" + field + "', value is out of range [ 0, " + UINT32_MAX + " ], got: "
                + text);
        }
        return parsed;
    }

    private static String single(final String field, final List<String> values)
    {
        if (values.size() != 1)
        {
            throw invalid("expect only 1 value for '" + field + "', got " + values.size());
        }
        return values.getFirst();
    }

    /** A decimal integer, optionally signed; anything else is Triton's "Unable to parse" error. */
    private static long integer(final String field, final String text)
    {
        if (!text.matches("[+-]?[0-9]+"))
        {
            throw invalid("Unable to parse '" + field + "', got: " + text);
        }
        try
        {
            return Long.parseLong(text.startsWith("+") ? text.substring(1) : text);
        }
        catch (final NumberFormatException tooLong)
        {
            return text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
