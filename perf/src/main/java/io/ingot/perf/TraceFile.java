package io.ingot.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads {@code --request-trace FILE.csv}: recorded arrival times to replay ({@link Arrivals.Trace}).
 *
 * <p>Format: one arrival per line, its time in milliseconds (a decimal number, from any origin) in the first
 * comma-separated column; further columns are ignored, as are blank lines and lines starting with {@code #}. The
 * first line may be a header (a first column that is not a number). Times must not decrease (equal times are
 * simultaneous arrivals), and the trace needs at least two arrivals spanning more than zero time. At most
 * {@link #MAX_ARRIVALS} arrivals are read, so a wrong file costs bounded memory.
 */
public final class TraceFile
{
    /** The most arrivals a trace may hold. */
    public static final int MAX_ARRIVALS = 5_000_000;

    private TraceFile()
    {
    }

    /**
     * @param file the CSV file
     * @return the trace
     * @throws PerfException (usage) naming {@code --request-trace}, the file and the line of a bad timestamp
     */
    public static Arrivals.Trace read(final Path file)
    {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            return parse(reader, file.toString());
        }
        catch (final NoSuchFileException ex)
        {
            throw PerfException.usage("--request-trace " + file + ": no such file");
        }
        catch (final IOException ex)
        {
            throw PerfException.usage("--request-trace " + file + ": cannot read it: " + ex.getMessage());
        }
    }

    /**
     * @param reader the CSV text
     * @param source its name in messages
     * @return the trace
     * @throws IOException when the text cannot be read
     * @throws PerfException (usage) for a malformed, decreasing or too short trace
     */
    static Arrivals.Trace parse(final BufferedReader reader, final String source) throws IOException
    {
        long[] times = new long[1024];
        int count = 0;
        int previousLine = 0;
        int lineNumber = 0;
        String line;
        while ((line = reader.readLine()) != null)
        {
            lineNumber++;
            final String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#"))
            {
                continue;
            }
            final int comma = trimmed.indexOf(',');
            final String field = (comma < 0 ? trimmed : trimmed.substring(0, comma)).strip();
            final double millis;
            try
            {
                millis = Double.parseDouble(field);
            }
            catch (final NumberFormatException ex)
            {
                if (count == 0 && previousLine == 0)
                {
                    previousLine = -1; // the header
                    continue;
                }
                throw error(source, lineNumber, "'" + field + "' is not a time in milliseconds");
            }
            if (!Double.isFinite(millis) || Math.abs(millis) > 1e12)
            {
                throw error(source, lineNumber, "'" + field + "' is not a finite time in milliseconds");
            }
            final long nanos = Math.round(millis * 1e6);
            if (count > 0 && nanos < times[count - 1])
            {
                throw error(source, lineNumber, "time " + field + " ms is before the previous arrival's (line "
                    + previousLine + "); the times must be sorted");
            }
            if (count == MAX_ARRIVALS)
            {
                throw error(source, lineNumber, "more than " + MAX_ARRIVALS + " arrivals");
            }
            if (count == times.length)
            {
                times = Arrays.copyOf(times, times.length * 2);
            }
            times[count++] = nanos;
            previousLine = lineNumber;
        }
        if (count < 2)
        {
            throw PerfException.usage("--request-trace " + source + ": needs at least two arrival times, found "
                + count);
        }
        final long span = times[count - 1] - times[0];
        if (span <= 0)
        {
            throw PerfException.usage("--request-trace " + source + ": all " + count + " arrivals are at the same"
                + " time; the trace must span more than 0 ms");
        }
        final long[] gaps = new long[count];
        for (int i = 1; i < count; i++)
        {
            gaps[i] = times[i] - times[i - 1];
        }
        gaps[0] = Math.round((double)span / (count - 1));
        return new Arrivals.Trace(source, gaps, (count - 1) * 1e9 / span);
    }

    private static PerfException error(final String source, final int line, final String what)
    {
        return PerfException.usage("--request-trace " + source + " line " + line + ": " + what);
    }
}
