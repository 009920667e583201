package io.ingot.cli;

import io.ingot.repository.BackendRegistry;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.device.CudaDevice;
import io.ingot.device.PinnedAllocators;
import io.ingot.repository.ModelRepository;
import io.ingot.repository.ScanResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ingot models validate DIR}: reads every model of a repository as {@code serve} would, without serving:
 * parses its configuration, completes it (from the model file where the backend does, e.g. ONNX inputs and outputs),
 * normalizes and validates it, and checks that a backend on the class path serves it. With {@code --load} it also
 * loads every model with its backend, which catches what only loading tells: a missing or corrupt model file, a
 * configuration that disagrees with the model. Prints the model table and every error; exits 0 when every model is
 * valid, 1 otherwise. The checks run in Triton's order, so each model's first error is the one Triton reports.
 *
 * <p>{@code --disable-auto-complete-config} (or Triton's deprecated {@code --strict-model-config=true}) checks a
 * repository as Triton's strict mode loads it: every model needs a {@code config.pbtxt}, inputs and outputs are
 * validated as written, nothing is read from the model files; {@code platform}, {@code backend} and the default
 * model file name are still derived from each other and from the version directory, as Triton does.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Check every model of a repository: parse, complete, normalize and validate its configuration"
        + " and find its backend (--load: also load it). Prints the model table; exits non-zero after naming every"
        + " error."})
final class ValidateCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "The model repository.")
    Path directory;

    @Option(names = "--model-config-name", paramLabel = "NAME",
        description = "Prefer <model>/configs/<NAME>.pbtxt over config.pbtxt.")
    String modelConfigName;

    @Option(names = "--load", description = "Also load every model with its backend, as serve does.")
    boolean load;

    @Option(names = "--strict-model-config", arity = "1", paramLabel = "BOOL",
        converter = TritonValues.BooleanValue.class,
        description = {"Triton's (deprecated) flag: if true every model needs a config.pbtxt with every required"
            + " setting; nothing is auto-completed from the model (default: false)."})
    Boolean strictModelConfig;

    @Option(names = "--disable-auto-complete-config", description = {"Triton's flag: neither Ingot nor the"
        + " backends complete model configurations; every model needs a complete config.pbtxt. Wins over"
        + " --strict-model-config=false."})
    boolean disableAutoCompleteConfig;

    private final CoreOpener opener;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param opener opens the core (for {@code --load})
     * @param out    where the table goes
     * @param err    where the errors go
     */
    ValidateCommand(final CoreOpener opener, final PrintStream out, final PrintStream err)
    {
        this.opener = opener;
        this.out = out;
        this.err = err;
    }

    /**
     * @return whether configurations may be auto-completed: Triton's default, off with
     *         {@code --disable-auto-complete-config} or {@code --strict-model-config=true}
     */
    boolean autoComplete()
    {
        return TritonValues.autoCompleteConfig(strictModelConfig != null, Boolean.TRUE.equals(strictModelConfig),
            disableAutoCompleteConfig, err);
    }

    @Override
    public Integer call()
    {
        if (!Files.isDirectory(directory))
        {
            throw CliException.usage("model repository '" + directory + "' is not a directory");
        }
        final boolean autoComplete = autoComplete();
        final Path root = directory.toAbsolutePath().normalize();
        final ScanResult scan = scan(root, autoComplete);
        scan.warnings().forEach(warning -> err.println("warning: " + warning));
        final ModelTable table = load ? loaded(root, autoComplete) : ModelTable.of(scan, new BackendRegistry());
        if (table.rows().isEmpty())
        {
            err.println("error: no models found in '" + directory + "' (expected <model>/config.pbtxt and numbered"
                + " version directories)");
            return CliException.FAILURE;
        }
        table.print(out);
        final List<ModelTable.Row> failures = table.failures();
        for (final ModelTable.Row failure : failures)
        {
            err.println("error: " + (failure.reason().isEmpty() ? "model '" + failure.model() + "': "
                + failure.state() : failure.reason()));
        }
        if (!failures.isEmpty())
        {
            err.println(failures.size() + " of " + table.rows().size() + " model(s) failed validation");
            return CliException.FAILURE;
        }
        out.println(table.rows().size() + " model(s) valid" + (load ? " and loaded" : ""));
        return 0;
    }

    private ScanResult scan(final Path root, final boolean autoComplete)
    {
        final NormalizeContext gpus = NormalizeContext.withGpus(PinnedAllocators.discovery().devices().stream()
            .map(CudaDevice::index).toList());
        try
        {
            return ModelRepository.scan(List.of(root), modelConfigName,
                new BackendRegistry().autoCompleter(autoComplete), gpus);
        }
        catch (final ConfigException e)
        {
            throw CliException.usage(e.getMessage());
        }
    }

    private ModelTable loaded(final Path root, final boolean autoComplete)
    {
        final CoreOptions options = CoreOptions.builder()
            .modelRepository(root)
            .controlMode(ModelControlMode.NONE)
            .modelConfigName(modelConfigName)
            .autoCompleteConfig(autoComplete)
            .build();
        try (InferenceCore core = opener.open(options))
        {
            return ModelTable.of(core);
        }
    }
}
