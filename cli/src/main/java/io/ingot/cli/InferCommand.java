package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.config.proto.ModelConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ingot infer}: loads one model, runs one request and prints its outputs; a smoke check for users.
 *
 * <pre>
 * ./ingot infer --model-repository examples/models -m add_sub \
 *     --input INPUT0=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input INPUT1=@ones.npy
 * </pre>
 */
@Command(name = "infer", mixinStandardHelpOptions = true,
    description = "Run one request against a model of a repository and print the outputs.")
final class InferCommand implements Callable<Integer>
{
    @Mixin
    RepositoryOptions repository = new RepositoryOptions();

    @Option(names = {"-m", "--model"}, required = true, paramLabel = "MODEL", description = "The model to run.")
    String model;

    @Option(names = {"-v", "--model-version"}, paramLabel = "N", defaultValue = "-1",
        description = "The version to run (default: the model's default version).")
    long version;

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "NAME=VALUES|FILE",
        description = "An input: comma-separated values (shape from the configuration, batch 1, or --shape), or"
            + " a .npy file, or a raw little-endian binary file (@FILE forces a file).")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--shape", paramLabel = "NAME=D0,D1,...",
        description = "The full shape of an input (with the batch dimension when the model batches).")
    Map<String, String> shapes = new LinkedHashMap<>();

    @Option(names = {"-o", "--output"}, paramLabel = "NAME", description = "An output to return (default: all).")
    List<String> outputs = new ArrayList<>();

    @Option(names = "--max-values", paramLabel = "N", defaultValue = "32",
        description = "Values printed per output (default ${DEFAULT-VALUE}).")
    int maxValues;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
        description = "How long to wait for the response (default ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    private final CoreOpener opener;
    private final PrintStream out;

    /**
     * @param opener opens the core
     * @param out    where the outputs go
     */
    InferCommand(final CoreOpener opener, final PrintStream out)
    {
        this.opener = opener;
        this.out = out;
    }

    @Override
    public Integer call() throws Exception
    {
        final CoreOptions options = repository.coreOptions()
            .controlMode(ModelControlMode.EXPLICIT)
            .startupModel(model)
            .build();
        try (InferenceCore core = opener.open(options); Arena arena = Arena.ofShared())
        {
            final ModelConfig config = readyConfig(core);
            final TensorInputParser parser = new TensorInputParser(config, parsedShapes(), arena);
            final List<TensorInput> tensors = new ArrayList<>();
            for (final String input : inputs)
            {
                final TensorInput tensor = parser.parse(input);
                if (tensors.stream().anyMatch(given -> given.name().equals(tensor.name())))
                {
                    throw CliException.usage("input '" + tensor.name() + "' is given more than once");
                }
                tensors.add(tensor);
            }
            parser.checkComplete(tensors);
            final InferenceRequest request = new InferenceRequest(model).modelVersion(version).id("ingot-infer");
            for (final TensorInput tensor : tensors)
            {
                request.addInput(tensor.name(), tensor.dataType(), tensor.shape(), tensor.data());
            }
            for (final String output : outputs)
            {
                checkOutput(config, output);
                request.requestOutput(output);
            }
            final InferenceResponse response;
            try
            {
                response = core.submit(request).get(timeoutSeconds, TimeUnit.SECONDS);
            }
            catch (final InferenceException e)
            {
                throw CliException.usage("model '" + model + "' rejected the request: " + e.code() + ": "
                    + e.getMessage());
            }
            catch (final TimeoutException e)
            {
                throw CliException.failure("no response from model '" + model + "' within " + timeoutSeconds + " s");
            }
            try (response)
            {
                if (!response.isOk())
                {
                    throw CliException.failure("inference failed: " + response.error().code() + ": "
                        + response.error().getMessage());
                }
                final OutputPrinter printer = new OutputPrinter(maxValues);
                for (int i = 0; i < response.outputCount(); i++)
                {
                    printer.print(response.output(i), out);
                }
            }
            return 0;
        }
    }

    private ModelConfig readyConfig(final InferenceCore core)
    {
        final List<ModelIndexEntry> index = core.repositoryIndex(false);
        final List<ModelIndexEntry> entries = index.stream().filter(entry -> entry.name().equals(model)).toList();
        if (entries.isEmpty())
        {
            throw CliException.usage("model '" + model + "' is not in " + repository.repositories + " (models: "
                + String.join(", ", index.stream().map(ModelIndexEntry::name).distinct().sorted().toList()) + ")");
        }
        if (!core.isModelReady(model, version))
        {
            final String reasons = String.join("; ", entries.stream()
                .map(entry -> entry.reason().isEmpty() ? entry.state() : entry.reason()).toList());
            throw CliException.failure("model '" + model + "' is not ready: " + reasons);
        }
        return core.modelConfig(model, version);
    }

    private Map<String, long[]> parsedShapes()
    {
        final Map<String, long[]> parsed = new LinkedHashMap<>();
        for (final Map.Entry<String, String> entry : shapes.entrySet())
        {
            final String[] parts = entry.getValue().split(",");
            final long[] shape = new long[parts.length];
            for (int i = 0; i < parts.length; i++)
            {
                try
                {
                    shape[i] = Long.parseLong(parts[i].trim());
                }
                catch (final NumberFormatException e)
                {
                    throw CliException.usage("--shape " + entry.getKey() + "=" + entry.getValue()
                        + ": '" + parts[i] + "' is not a dimension (expected comma-separated whole numbers)");
                }
                if (shape[i] < 0)
                {
                    throw CliException.usage("--shape " + entry.getKey() + "=" + entry.getValue()
                        + ": dimensions must be >= 0");
                }
            }
            parsed.put(entry.getKey(), shape);
        }
        return parsed;
    }

    private void checkOutput(final ModelConfig config, final String output)
    {
        if (config.getOutputList().stream().noneMatch(candidate -> candidate.getName().equals(output)))
        {
            throw CliException.usage("model '" + model + "' has no output '" + output + "'; its outputs are "
                + String.join(", ", config.getOutputList().stream().map(o -> o.getName()).toList()));
        }
    }
}
