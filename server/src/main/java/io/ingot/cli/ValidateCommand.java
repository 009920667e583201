package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ingot models validate DIR}: parses, normalizes and validates every model configuration of a repository by
 * loading every model, as {@code serve} would, then prints the model table and names every error. Exits 0 when every
 * model loads, 1 otherwise.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check every model of a repository: parse, normalize and validate its configuration and load it."
        + " Prints the model table; exits non-zero after naming every error.")
final class ValidateCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "The model repository.")
    Path directory;

    @Option(names = "--model-config-name", paramLabel = "NAME",
        description = "Prefer <model>/configs/<NAME>.pbtxt over config.pbtxt.")
    String modelConfigName;

    private final CoreOpener opener;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param opener opens the core
     * @param out    where the table goes
     * @param err    where the errors go
     */
    ValidateCommand(final CoreOpener opener, final PrintStream out, final PrintStream err)
    {
        this.opener = opener;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call()
    {
        if (!Files.isDirectory(directory))
        {
            throw CliException.usage("model repository '" + directory + "' is not a directory");
        }
        final CoreOptions options = CoreOptions.builder()
            .modelRepository(directory.toAbsolutePath().normalize())
            .controlMode(ModelControlMode.NONE)
            .modelConfigName(modelConfigName)
            .build();
        try (InferenceCore core = opener.open(options))
        {
            final ModelTable table = ModelTable.of(core);
            if (table.rows().isEmpty())
            {
                err.println("error: no models found in '" + directory + "' (expected <model>/config.pbtxt and"
                    + " numbered version directories)");
                return CliException.FAILURE;
            }
            table.print(out);
            final List<ModelTable.Row> failures = table.failures();
            for (final ModelTable.Row failure : failures)
            {
                err.println("error: model '" + failure.model() + "'"
                    + (failure.version().equals("-") ? "" : " version " + failure.version()) + ": "
                    + (failure.reason().isEmpty() ? failure.state() : failure.reason()));
            }
            if (!failures.isEmpty())
            {
                err.println(failures.size() + " of " + table.rows().size() + " model version(s) failed validation");
                return CliException.FAILURE;
            }
            out.println(table.rows().size() + " model version(s) valid");
            return 0;
        }
    }
}
