package io.ingot.cli;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.server.trace.TraceManager;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Triton's trace flags: {@code --trace-config} (repeatable: {@code level=OFF|TIMESTAMPS|TENSORS}, {@code rate=N},
 * {@code count=N}, {@code mode=triton}, {@code triton,file=PATH}, {@code triton,log-frequency=N}) and the flags
 * Triton deprecated in its favour ({@code --trace-file}, {@code --trace-level}, {@code --trace-rate},
 * {@code --trace-count}, {@code --trace-log-frequency}), which still work, each with Triton's warning, and read as the
 * {@code --trace-config} entry they stand for; a {@code --trace-config} entry for the same setting wins, being read
 * later. The settings become the trace extension's global start-up setting, which {@code /v2/trace/setting} then
 * shows and changes.
 *
 * <p>Not thread-safe: the command line fills it; {@code serve} checks it before it loads a model and applies it
 * before a frontend starts.
 */
final class TraceFlags
{
    @Option(names = "--trace-config", paramLabel = "<string>,<string>=<string>",
        description = "Triton's: a trace setting, <setting>=<value> or triton,<setting>=<value>; repeatable "
            + "(level=OFF|TIMESTAMPS|TENSORS, rate, count, mode=triton, triton,file, triton,log-frequency).")
    List<String> config = new ArrayList<>();

    @Option(names = "--trace-file", paramLabel = "<string>",
        description = "DEPRECATED (as in Triton): use --trace-config triton,file=<path/to/your/file>.")
    String file;

    @Option(names = "--trace-level", paramLabel = "<string>",
        description = "DEPRECATED (as in Triton): use --trace-config level=<OFF|TIMESTAMPS|TENSORS>; repeatable.")
    List<String> level = new ArrayList<>();

    @Option(names = "--trace-rate", paramLabel = "<integer>",
        description = "DEPRECATED (as in Triton): use --trace-config rate=<rate value>.")
    String rate;

    @Option(names = "--trace-count", paramLabel = "<integer>",
        description = "DEPRECATED (as in Triton): use --trace-config count=<count value>.")
    String count;

    @Option(names = "--trace-log-frequency", paramLabel = "<integer>",
        description = "DEPRECATED (as in Triton): use --trace-config triton,log-frequency=<log frequency value>.")
    String logFrequency;

    /**
     * The {@code --trace-config} entries the flags amount to, warning on {@code err} for each deprecated flag given,
     * in Triton's words.
     *
     * @param err where the warnings go
     * @return the entries, the deprecated flags' first
     */
    List<String> entries(final PrintStream err)
    {
        final List<String> entries = new ArrayList<>();
        deprecated(err, entries, "--trace-file", "triton,file=<filepath>", file == null ? List.of()
            : List.of("triton,file=" + file));
        deprecated(err, entries, "--trace-level", "level=<OFF|TIMESTAMPS|TENSORS>",
            level.stream().map(value -> "level=" + value).toList());
        deprecated(err, entries, "--trace-rate", "rate=<rate value>", rate == null ? List.of()
            : List.of("rate=" + rate));
        deprecated(err, entries, "--trace-count", "count=<count value>", count == null ? List.of()
            : List.of("count=" + count));
        deprecated(err, entries, "--trace-log-frequency", "triton,log-frequency=<log frequency value>",
            logFrequency == null ? List.of() : List.of("triton,log-frequency=" + logFrequency));
        entries.addAll(config);
        return entries;
    }

    /**
     * Refuses settings Triton refuses, before any model loads.
     *
     * @param entries {@link #entries}
     * @throws CliException a usage error with the trace extension's message
     */
    static void check(final List<String> entries)
    {
        try
        {
            TraceManager.check(entries);
        }
        catch (final InferenceException ex)
        {
            throw CliException.usage(ex.getMessage());
        }
    }

    /**
     * Makes the entries the global trace setting of the frontends that will serve this core.
     *
     * @param core    the core the frontends serve (the same object they are given)
     * @param entries {@link #entries}, already {@link #check checked}
     */
    static void apply(final InferenceCore core, final List<String> entries)
    {
        if (!entries.isEmpty())
        {
            TraceManager.forCore(core).configure(entries);
        }
    }

    private static void deprecated(final PrintStream err, final List<String> entries, final String flag,
        final String replacement, final List<String> given)
    {
        if (given.isEmpty())
        {
            return;
        }
        err.println("Warning: '" + flag + "' has been deprecated and will be removed in future releases. Please use "
            + "'--trace-config " + replacement + " instead.");
        entries.addAll(given);
    }
}
