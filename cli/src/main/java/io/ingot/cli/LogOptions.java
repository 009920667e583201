package io.ingot.cli;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Triton's logging flags ({@code --log-verbose}, {@code --log-info}, {@code --log-warning}, {@code --log-error},
 * {@code --log-format}, {@code --log-file}) and what they do to the process's logging. Ingot logs through
 * {@link System.Logger}, which the JDK backs with {@code java.util.logging}; {@link #apply()} replaces the root
 * logger's handlers with one that writes Triton's layout to standard error or to the log file.
 *
 * <p>Triton's four switches are independent (errors can be on while warnings are off), so the root logger's level is
 * the lowest level enabled and the handler's filter drops the disabled ones. Verbose level 1 enables
 * {@link Level#FINE}, 2 {@link Level#FINER}, 3 or more everything.
 *
 * <p>Not thread-safe: the command line fills it and calls {@link #apply()} once, before the core starts.
 */
final class LogOptions
{
    @Option(names = "--log-verbose", paramLabel = "<integer>", defaultValue = "0",
        description = "Triton's: verbose logging level; 0 disables it, 1 or more enables it (1: FINE, 2: FINER, "
            + "3: all). true is 1, false is 0.")
    String verbose;

    @Option(names = "--log-info", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: enable/disable info-level logging (default true).")
    String info;

    @Option(names = "--log-warning", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: enable/disable warning-level logging (default true).")
    String warning;

    @Option(names = "--log-error", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: enable/disable error-level logging (default true).")
    String error;

    @Option(names = "--log-format", paramLabel = "<string>", defaultValue = "default",
        description = "Triton's: \"default\" (LMMDD hh:mm:ss.ssssss pid logger] message, UTC) or \"ISO8601\" "
            + "(YYYY-MM-DDThh:mm:ssZ L pid logger] message).")
    String format;

    @Option(names = "--log-file", paramLabel = "<string>",
        description = "Triton's: append the log to this file instead of standard error.")
    Path file;

    /**
     * Configures the process's logging as the flags say.
     *
     * @throws CliException for a malformed value or a log file that cannot be opened, naming the flag
     */
    void apply()
    {
        final int verboseLevel = verboseLevel();
        final boolean iso = switch (format)
        {
            case "default" -> false;
            case "ISO8601" -> true;
            default -> throw CliException.usage("Bad option: \"--log-format\". invalid argument for --log-format: '"
                + format + "' (default or ISO8601)");
        };
        final boolean infoOn = Boolean.parseBoolean(info);
        final boolean warningOn = Boolean.parseBoolean(warning);
        final boolean errorOn = Boolean.parseBoolean(error);
        final Handler handler = file == null ? new ConsoleHandler() : fileHandler(file);
        handler.setLevel(Level.ALL);
        handler.setFormatter(new TritonFormatter(iso));
        handler.setFilter(entry -> enabled(entry.getLevel(), verboseLevel, infoOn, warningOn, errorOn));
        final Logger root = LogManager.getLogManager().getLogger("");
        for (final Handler old : root.getHandlers())
        {
            root.removeHandler(old);
            old.close();
        }
        root.addHandler(handler);
        root.setLevel(threshold(verboseLevel, infoOn, warningOn, errorOn));
    }

    /** @return the verbose level, checked */
    int verboseLevel()
    {
        try
        {
            return TritonValues.parseVerboseLevel(verbose);
        }
        catch (final RuntimeException e)
        {
            throw CliException.usage("Bad option: \"--log-verbose\". " + e.getMessage());
        }
    }

    /**
     * @return whether a record of this level is written under these switches
     */
    static boolean enabled(final Level level, final int verbose, final boolean info, final boolean warning,
        final boolean error)
    {
        final int value = level.intValue();
        if (value >= Level.SEVERE.intValue())
        {
            return error;
        }
        if (value >= Level.WARNING.intValue())
        {
            return warning;
        }
        if (value >= Level.CONFIG.intValue())
        {
            return info;
        }
        return verbose >= verboseLevelOf(level);
    }

    private static int verboseLevelOf(final Level level)
    {
        final int value = level.intValue();
        return value >= Level.FINE.intValue() ? 1 : value >= Level.FINER.intValue() ? 2 : 3;
    }

    /** @return the lowest level any switch enables ({@link Level#OFF} when none does) */
    static Level threshold(final int verbose, final boolean info, final boolean warning, final boolean error)
    {
        if (verbose >= 3)
        {
            return Level.ALL;
        }
        if (verbose == 2)
        {
            return Level.FINER;
        }
        if (verbose == 1)
        {
            return Level.FINE;
        }
        return info ? Level.CONFIG : warning ? Level.WARNING : error ? Level.SEVERE : Level.OFF;
    }

    private static Handler fileHandler(final Path path)
    {
        final OutputStream stream;
        try
        {
            // Triton appends to an existing log file.
            stream = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (final IOException | RuntimeException e)
        {
            throw CliException.usage("Bad option: \"--log-file\". Failed to open log file: " + path + ": " + e);
        }
        return new StreamHandler(stream, new TritonFormatter(false))
        {
            @Override
            public synchronized void publish(final LogRecord entry)
            {
                super.publish(entry);
                // A log file someone tails, or reads after a crash, holds every record written so far.
                flush();
            }
        };
    }

    /**
     * Triton's log layout: {@code I1201 22:59:38.123456 4242 Core] message} ({@code default}) or
     * {@code 2026-12-01T22:59:38Z I 4242 Core] message} ({@code ISO8601}), in UTC, with the logger's simple name
     * where Triton writes {@code file:line}. Thread-safe.
     */
    static final class TritonFormatter extends Formatter
    {
        private static final DateTimeFormatter DEFAULT = DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS")
            .withZone(ZoneOffset.UTC);
        private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
        private static final long PID = ProcessHandle.current().pid();

        private final boolean iso;

        /**
         * @param iso true for Triton's ISO8601 layout, false for its default one
         */
        TritonFormatter(final boolean iso)
        {
            this.iso = iso;
        }

        @Override
        public String format(final LogRecord entry)
        {
            final Instant when = entry.getInstant();
            final char level = letter(entry.getLevel());
            final String name = entry.getLoggerName() == null ? "" : entry.getLoggerName();
            final StringBuilder line = new StringBuilder(96);
            if (iso)
            {
                line.append(ISO.format(when)).append(' ').append(level);
            }
            else
            {
                line.append(level).append(DEFAULT.format(when));
            }
            line.append(' ').append(PID).append(' ').append(name.substring(name.lastIndexOf('.') + 1)).append("] ")
                .append(formatMessage(entry)).append(System.lineSeparator());
            if (entry.getThrown() != null)
            {
                final StringWriter trace = new StringWriter();
                entry.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }

        private static char letter(final Level level)
        {
            final int value = level.intValue();
            return value >= Level.SEVERE.intValue() ? 'E' : value >= Level.WARNING.intValue() ? 'W'
                : value >= Level.CONFIG.intValue() ? 'I' : 'V';
        }
    }
}
