package io.ingot.cli;

import io.ingot.api.InferenceException;
import io.ingot.perf.PerfCommand;
import io.ingot.perf.tune.TuneCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ServiceLoader;

/**
 * The {@code ingot} command line. Built-in subcommands: {@code serve}, {@code models validate}, {@code infer},
 * {@code perf} (the perf module's load generator) and {@code tune} (its configuration sweep); every
 * {@link IngotSubcommand} found with {@link ServiceLoader} is added as well. Errors the user can act on are
 * printed as one line ({@code error: ...}) with exit code 2 for bad input and 1 for failures.
 */
@Command(name = "ingot", mixinStandardHelpOptions = true, versionProvider = IngotCli.Version.class,
    description = "Ingot: a Triton-class inference server core for the JVM.",
    footer = {"", "Example: ./ingot serve --model-repository examples/models"})
public final class IngotCli
{
    private IngotCli()
    {
    }

    /**
     * Runs the command line and exits with its exit code (unless {@code serve} is still serving, which ends on
     * SIGINT/SIGTERM).
     *
     * @param args the arguments
     */
    public static void main(final String[] args)
    {
        // One line per log record ("INFO: loaded ..."), unless the user configured logging otherwise.
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null
            && System.getProperty("java.util.logging.config.file") == null)
        {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%6$s%n");
        }
        System.exit(run(args, CoreOpener.DEFAULT, System.out, System.err));
    }

    /**
     * Runs the command line.
     *
     * @param args   the arguments
     * @param opener opens cores (a fake in tests)
     * @param out    standard output
     * @param err    standard error
     * @return the exit code
     */
    static int run(final String[] args, final CoreOpener opener, final PrintStream out, final PrintStream err)
    {
        return commandLine(opener, out, err).execute(args);
    }

    /**
     * Builds the command tree.
     *
     * @param opener opens cores
     * @param out    standard output
     * @param err    standard error
     * @return the command line, ready to execute
     */
    static CommandLine commandLine(final CoreOpener opener, final PrintStream out, final PrintStream err)
    {
        final CommandLine cli = new CommandLine(new IngotCli());
        cli.addSubcommand("serve", ServeCommand.commandLine(new ServeCommand(opener, out, err)));
        final CommandLine models = new CommandLine(new ModelsCommand());
        models.addSubcommand("validate", new ValidateCommand(opener, out, err));
        cli.addSubcommand("models", models);
        cli.addSubcommand("infer", new InferCommand(opener, out));
        cli.addSubcommand("perf", new PerfCommand());
        cli.addSubcommand("tune", new TuneCommand());
        for (final IngotSubcommand extra : ServiceLoader.load(IngotSubcommand.class))
        {
            final Command annotation = extra.getClass().getAnnotation(Command.class);
            if (annotation == null || annotation.name().isEmpty() || "<main class>".equals(annotation.name()))
            {
                err.println("warning: ignoring subcommand " + extra.getClass().getName()
                    + ": it has no @Command(name = ...)");
                continue;
            }
            if (cli.getSubcommands().containsKey(annotation.name()))
            {
                err.println("warning: ignoring subcommand " + extra.getClass().getName() + ": the name '"
                    + annotation.name() + "' is taken");
                continue;
            }
            cli.addSubcommand(annotation.name(), extra);
        }
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExecutionExceptionHandler((exception, commandLine, parseResult) ->
        {
            if (exception instanceof CliException failure)
            {
                commandLine.getErr().println("error: " + failure.getMessage());
                return failure.exitCode();
            }
            if (exception instanceof InferenceException failure)
            {
                commandLine.getErr().println("error: " + failure.code() + ": " + failure.getMessage());
                return CliException.FAILURE;
            }
            commandLine.getErr().println("error: " + exception);
            exception.printStackTrace(commandLine.getErr());
            return CliException.FAILURE;
        });
        return cli;
    }

    /** Reports the version from the jar's manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String version = IngotCli.class.getPackage().getImplementationVersion();
            return new String[] {"ingot " + (version == null ? "(development build)" : version),
                "Java " + Runtime.version()};
        }
    }
}
