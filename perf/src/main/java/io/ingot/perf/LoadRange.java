package io.ingot.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A range of load levels as perf_analyzer writes it, {@code start[:end[:step]]}: {@code 1:64:x2} doubles
 * (1, 2, 4, ... 64), {@code 4:16:4} or {@code 4:16:+4} adds (4, 8, 12, 16). {@code end} defaults to {@code start},
 * an additive {@code step} to 1.
 *
 * @param start          the first level, {@code > 0}
 * @param end            the last level, {@code >= start}
 * @param step           the increment, or the factor when {@code multiplicative}
 * @param multiplicative true for {@code xN} steps
 */
public record LoadRange(double start, double end, double step, boolean multiplicative)
{
    /** The most levels one range may produce. */
    public static final int MAX_LEVELS = 1000;

    /** Checks the range. */
    public LoadRange
    {
        if (!(start > 0) || !(end >= start) || !(multiplicative ? step > 1 : step > 0))
        {
            throw new IllegalArgumentException("invalid range " + start + ":" + end + ":" + step);
        }
    }

    /**
     * Parses {@code start[:end[:step]]}.
     *
     * @param text     the option's value
     * @param option   the option's name, for messages
     * @param integral true when levels must be whole numbers (concurrency)
     * @return the range
     * @throws PerfException (usage) naming the option, the value and the expected form
     */
    public static LoadRange parse(final String text, final String option, final boolean integral)
    {
        final String form = option + " expects start[:end[:step]] with 0 < start <= end and a step N, +N or xN (N > 0;"
            + " xN needs N >"
            + " 1)" + (integral ? ", whole numbers" : "") + ", e.g. " + (integral ? "1:64:x2" : "100:800:x2")
            + "; got '" + text + "'";
        final String[] parts = text.trim().split(":", -1);
        if (parts.length > 3 || text.isBlank())
        {
            throw PerfException.usage(form);
        }
        try
        {
            final double start = number(parts[0], integral);
            final double end = parts.length > 1 ? number(parts[1], integral) : start;
            double step = 1;
            boolean multiplicative = false;
            if (parts.length > 2)
            {
                final String s = parts[2].trim().toLowerCase(Locale.ROOT);
                if (s.startsWith("x") || s.startsWith("*"))
                {
                    multiplicative = true;
                    step = Double.parseDouble(s.substring(1));
                }
                else
                {
                    step = number(s.startsWith("+") ? s.substring(1) : s, integral);
                }
            }
            final LoadRange range = new LoadRange(start, end, step, multiplicative);
            if (range.values().size() > MAX_LEVELS)
            {
                throw PerfException.usage(option + " '" + text + "' gives more than " + MAX_LEVELS + " levels");
            }
            return range;
        }
        catch (final IllegalArgumentException ex)
        {
            // NumberFormatException included: every malformed part gets the same explanation.
            throw PerfException.usage(form);
        }
    }

    private static double number(final String text, final boolean integral)
    {
        final String t = text.trim();
        if (integral)
        {
            return Long.parseLong(t);
        }
        final double value = Double.parseDouble(t);
        if (!Double.isFinite(value))
        {
            throw new NumberFormatException(t);
        }
        return value;
    }

    /** @return the levels, in order, from {@code start} up to and including {@code end} when a step lands on it. */
    public List<Double> values()
    {
        final List<Double> levels = new ArrayList<>();
        double level = start;
        // A small tolerance, so that 0.1 steps reach their end despite rounding.
        final double limit = end * (1 + 1e-9);
        while (level <= limit && levels.size() <= MAX_LEVELS)
        {
            levels.add(level);
            level = multiplicative ? level * step : level + step;
        }
        return levels;
    }

    @Override
    public String toString()
    {
        return format(start) + ":" + format(end) + ":" + (multiplicative ? "x" : "") + format(step);
    }

    private static String format(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }
}
