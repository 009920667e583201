package io.ingot.server.logging;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.Instant;
import java.util.logging.Filter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * The process's log settings as Triton names them, applied to {@code java.util.logging} (the backend of the
 * {@code System.Logger}s Ingot logs through) while the server runs: the logging extension's endpoints
 * ({@code /v2/logging}, gRPC {@code LogSettings}) and Triton's command-line flags ({@code --log-info},
 * {@code --log-warning}, {@code --log-error}, {@code --log-verbose}, {@code --log-format}, {@code --log-file}) call
 * {@link #update} and {@link #logFile}.
 *
 * <p>Levels map as Triton's do: error = {@code SEVERE} ({@code System.Logger.Level.ERROR}), warning =
 * {@code WARNING}, info = {@code INFO}; verbose level 1 adds {@code CONFIG} and {@code FINE} ({@code DEBUG}), 2
 * adds {@code FINER} ({@code TRACE}), 3 or more adds {@code FINEST}. Each of error, warning and info is switched on
 * and off on its own, as in Triton, by a filter on the root logger's handlers.
 *
 * <p>Formats are Triton's ({@code common src/logging.cc}): {@code default} writes
 * {@code I1201 23:45:01.123456 <pid> <source>] message}, {@code ISO8601} writes
 * {@code 2026-12-01T23:45:01Z I <pid> <source>] message}; times are UTC; the level letter is E, W, I or V;
 * {@code <source>} is the logging class's simple name (Java has no file and line to give).
 *
 * <p>Until the first {@link #update} or {@link #logFile} the JVM's logging configuration is left exactly as it is;
 * the first one installs the filter and the formatter on the root logger's handlers present at that moment.
 * A request that names an invalid value changes nothing (Triton applies the settings before the bad one).
 *
 * <p>Thread-safe: every method is synchronized; the filter reads a volatile snapshot.
 */
public final class LogSettings
{
    /** Triton's two formats, by the names its settings use. */
    public enum Format
    {
        /** {@code I1201 23:45:01.123456 <pid> <source>] message}. */
        DEFAULT("default"),
        /** {@code 2026-12-01T23:45:01Z I <pid> <source>] message}. */
        ISO8601("ISO8601");

        private final String settingName;

        Format(final String settingName)
        {
            this.settingName = settingName;
        }

        /** @return the name Triton's settings use. */
        public String settingName()
        {
            return settingName;
        }

        /**
         * @param name a setting value
         * @return the format, or {@code null} for a name Triton does not know (case-sensitive, as in Triton)
         */
        public static Format of(final String name)
        {
            for (final Format format : values())
            {
                if (format.settingName.equals(name))
                {
                    return format;
                }
            }
            return null;
        }
    }

    /**
     * The settings, as the endpoints report them.
     *
     * @param logFile      the file logs go to, {@code ""} for the console
     * @param info         whether info messages are logged
     * @param warning      whether warnings are logged
     * @param error        whether errors are logged
     * @param verboseLevel 0 for none, else the verbose level
     * @param format       the line format
     */
    public record Snapshot(String logFile, boolean info, boolean warning, boolean error, int verboseLevel,
        Format format)
    {
    }

    /**
     * A change: every {@code null} component leaves its setting as it is.
     *
     * @param info         log info messages, or {@code null}
     * @param warning      log warnings, or {@code null}
     * @param error        log errors, or {@code null}
     * @param verboseLevel the verbose level ({@code >= 0}), or {@code null}
     * @param format       the format, or {@code null}
     */
    public record Change(Boolean info, Boolean warning, Boolean error, Integer verboseLevel, Format format)
    {
        /** A change that changes nothing. */
        public static final Change NONE = new Change(null, null, null, null, null);
    }

    private static final LogSettings GLOBAL = new LogSettings(Logger.getLogger(""));

    private final Logger root;
    private volatile Snapshot current = new Snapshot("", true, true, true, 0, Format.DEFAULT);
    private boolean installed;
    private Handler fileHandler;

    LogSettings(final Logger root)
    {
        this.root = root;
    }

    /** @return the settings of this process's logging. */
    public static LogSettings global()
    {
        return GLOBAL;
    }

    /** @return the settings now. */
    public Snapshot current()
    {
        return current;
    }

    /**
     * Applies a change.
     *
     * @param change what to change
     * @return the settings after it
     * @throws InferenceException INVALID_ARG for a negative verbose level
     */
    public synchronized Snapshot update(final Change change)
    {
        if (change.verboseLevel() != null && change.verboseLevel() < 0)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "invalid value for 'log_verbose_level': "
                + change.verboseLevel() + ", expected a non-negative integer");
        }
        final Snapshot before = current;
        current = new Snapshot(before.logFile(),
            change.info() == null ? before.info() : change.info(),
            change.warning() == null ? before.warning() : change.warning(),
            change.error() == null ? before.error() : change.error(),
            change.verboseLevel() == null ? before.verboseLevel() : change.verboseLevel(),
            change.format() == null ? before.format() : change.format());
        install();
        return current;
    }

    /**
     * Sends the log to a file instead of the console (Triton's {@code --log-file}; the endpoints refuse to change
     * it), appending to it.
     *
     * @param file the file
     * @return the settings after it
     * @throws InferenceException INVALID_ARG when the file cannot be opened
     */
    public synchronized Snapshot logFile(final Path file)
    {
        final OutputStream out;
        try
        {
            out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        }
        catch (final IOException failure)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "failed to open log file '" + file + "': "
                + failure.getMessage());
        }
        for (final Handler handler : root.getHandlers())
        {
            root.removeHandler(handler);
            if (handler == fileHandler)
            {
                handler.close();
            }
        }
        fileHandler = new StreamHandler(out, new TritonFormatter(this))
        {
            @Override
            public synchronized void publish(final LogRecord record)
            {
                super.publish(record);
                flush();
            }
        };
        root.addHandler(fileHandler);
        final Snapshot before = current;
        current = new Snapshot(file.toString(), before.info(), before.warning(), before.error(),
            before.verboseLevel(), before.format());
        installed = false;
        install();
        return current;
    }

    /** Sets the threshold and puts the filter and formatter on the root's handlers. Caller holds the lock. */
    private void install()
    {
        final Level threshold = threshold(current);
        root.setLevel(threshold);
        for (final Handler handler : root.getHandlers())
        {
            handler.setLevel(threshold);
            if (!installed)
            {
                handler.setFilter(new TritonFilter(this));
                handler.setFormatter(new TritonFormatter(this));
            }
        }
        installed = true;
    }

    private static Level threshold(final Snapshot settings)
    {
        if (settings.verboseLevel() >= 3)
        {
            return Level.ALL;
        }
        if (settings.verboseLevel() == 2)
        {
            return Level.FINER;
        }
        if (settings.verboseLevel() == 1)
        {
            return Level.FINE;
        }
        if (settings.info())
        {
            return Level.INFO;
        }
        return settings.warning() ? Level.WARNING : settings.error() ? Level.SEVERE : Level.OFF;
    }

    /**
     * @param level a record's level
     * @return whether the settings let it through
     */
    boolean isLogged(final Level level)
    {
        final Snapshot settings = current;
        final int value = level.intValue();
        if (value >= Level.SEVERE.intValue())
        {
            return settings.error();
        }
        if (value >= Level.WARNING.intValue())
        {
            return settings.warning();
        }
        if (value >= Level.INFO.intValue())
        {
            return settings.info();
        }
        if (value >= Level.FINE.intValue())
        {
            return settings.verboseLevel() >= 1;
        }
        return value >= Level.FINER.intValue() ? settings.verboseLevel() >= 2 : settings.verboseLevel() >= 3;
    }

    /** Lets through what the settings enable. */
    private record TritonFilter(LogSettings settings) implements Filter
    {
        @Override
        public boolean isLoggable(final LogRecord record)
        {
            return settings.isLogged(record.getLevel());
        }
    }

    /** Triton's line formats. */
    static final class TritonFormatter extends Formatter
    {
        private static final long PID = ProcessHandle.current().pid();

        private final LogSettings settings;

        TritonFormatter(final LogSettings settings)
        {
            this.settings = settings;
        }

        @Override
        public String format(final LogRecord record)
        {
            return format(record, settings.current().format());
        }

        String format(final LogRecord record, final Format format)
        {
            final ZonedDateTime time = ZonedDateTime.ofInstant(record.getInstant(), ZoneOffset.UTC);
            final char letter = letter(record.getLevel());
            final StringBuilder line = new StringBuilder(96);
            if (format == Format.ISO8601)
            {
                line.append(String.format("%04d-%02d-%02dT%02d:%02d:%02dZ ", time.getYear(), time.getMonthValue(),
                    time.getDayOfMonth(), time.getHour(), time.getMinute(), time.getSecond())).append(letter);
            }
            else
            {
                line.append(letter).append(String.format("%02d%02d %02d:%02d:%02d.%06d", time.getMonthValue(),
                    time.getDayOfMonth(), time.getHour(), time.getMinute(), time.getSecond(),
                    micros(record.getInstant())));
            }
            line.append(' ').append(PID).append(' ').append(source(record)).append("] ")
                .append(formatMessage(record));
            if (record.getThrown() != null)
            {
                final StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(System.lineSeparator()).append(trace.toString().stripTrailing());
            }
            return line.append(System.lineSeparator()).toString();
        }

        private static long micros(final Instant instant)
        {
            return instant.getNano() / 1000;
        }

        private static char letter(final Level level)
        {
            final int value = level.intValue();
            if (value >= Level.SEVERE.intValue())
            {
                return 'E';
            }
            if (value >= Level.WARNING.intValue())
            {
                return 'W';
            }
            return value >= Level.INFO.intValue() ? 'I' : 'V';
        }

        private static String source(final LogRecord record)
        {
            final String name = record.getSourceClassName() != null ? record.getSourceClassName()
                : record.getLoggerName();
            if (name == null)
            {
                return "-";
            }
            return name.substring(name.lastIndexOf('.') + 1);
        }
    }
}
