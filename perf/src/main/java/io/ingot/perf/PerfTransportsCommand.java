package io.ingot.perf;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelControlMode;
import io.ingot.api.TensorMetadata;
import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcLayout;
import io.ingot.server.ipc.IpcServer;
import io.ingot.server.ipc.IpcServerOptions;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ingot perf transports}: the round-trip latency of one model through the in-process API, shared-memory IPC,
 * HTTP and gRPC, all served by one core in this process and measured in the same run (see {@code --help} and
 * {@code docs/benchmarks/perf-transports.md}). Exit codes as {@code ingot perf}: 0 measured, 1 failure, 2 bad input.
 */
@Command(name = "transports", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Compares one model's latency in process, over IPC, HTTP and gRPC.",
        "",
        "Measures the round-trip latency of one model through the in-process API,",
        "shared-memory IPC, HTTP (binary tensors) and gRPC, in one run.",
        "",
        "One core in this process loads the model (only it) from the repository and",
        "serves it on loopback: HTTP and gRPC on ephemeral ports of 127.0.0.1 and an",
        "IPC server under a unique name. For each payload size (--elements: every",
        "input's variable dimension, batch 1) each transport gets one client that",
        "sends one request at a time (closed loop, concurrency 1). After a warm-up",
        "of every transport, the transports take turns in --rounds rounds of",
        "--requests requests each, the order rotating every round, so machine noise",
        "hits all of them alike.",
        "",
        "Reported per size and transport: p50, p99 and p99.9 latency (HdrHistogram,",
        "send to response) and p50 / in-process p50; per size the goals of the IPC",
        "transport: IPC p50 within 2x of in-process, gRPC p50 at least 10x IPC p50.",
        "",
        "Options:"},
    footer = {"",
        "Example:",
        "  ingot perf transports --model-repository examples/models -m identity \\",
        "      --json transports.json --markdown transports.md",
        "",
        "Exit status: 0 measured, 1 failure (model, server, a failed request),",
        "2 bad input."})
public final class PerfTransportsCommand implements Callable<Integer>
{
    /** Default payload sizes: one FP32 element, and 1 MiB of FP32. */
    private static final List<Long> DEFAULT_ELEMENTS = List.of(1L, 262_144L);

    @ParentCommand
    private PerfCommand parent;

    @Spec
    private CommandSpec spec;

    @Option(names = "--model-repository", required = true, paramLabel = "DIR",
        description = "The model repository.")
    private Path repository;

    @Option(names = {"-m", "--model-name"}, paramLabel = "MODEL", defaultValue = "identity",
        description = "Model to measure (default ${DEFAULT-VALUE}); each input needs one variable dimension or a"
            + " fixed shape, and one input at least a variable one.")
    private String model;

    @Option(names = "--elements", paramLabel = "N", split = ",",
        description = "Payload sizes: elements of each input's variable dimension (default 1,262144: one FP32"
            + " element and 1 MiB of FP32).")
    private List<Long> elements = new ArrayList<>(DEFAULT_ELEMENTS);

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "500",
        description = "Requests per transport and size before measuring (default ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5",
        description = "Interleaved rounds (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000",
        description = "Requests per transport, size and round (default ${DEFAULT-VALUE}).")
    private int requests;

    @Option(names = "--idle-mode", paramLabel = "BLOCKING|BACKOFF|SPINNING", defaultValue = "BLOCKING",
        description = "How the core's threads and the IPC server's thread wait for work (default ${DEFAULT-VALUE},"
            + " as ingot serve).")
    private IdleMode idleMode;

    @Option(names = "--json", paramLabel = "FILE.json", description = "Write the results as JSON.")
    private Path json;

    @Option(names = "--markdown", paramLabel = "FILE.md",
        description = "Write the tables as Markdown, to paste into the benchmarks page.")
    private Path markdown;

    @Override
    public Integer call()
    {
        try
        {
            return run();
        }
        catch (final PerfException ex)
        {
            err().println("error: " + ex.getMessage());
            return ex.exitCode();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err().println("error: interrupted");
            return PerfException.FAILURE;
        }
    }

    private PrintStream out()
    {
        return parent == null ? System.out : parent.out();
    }

    private PrintStream err()
    {
        return parent == null ? System.err : parent.err();
    }

    private int run() throws InterruptedException
    {
        validate();
        final String started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final List<TransportReport.Size> sizes = new ArrayList<>();
        try (InferenceCore core = openCore())
        {
            final List<Payload> payloads;
            try (InProcessTarget probe = new InProcessTarget(core, repository.toString(), model, ""))
            {
                payloads = payloads(probe.modelInfo());
            }
            final long largest = payloads.stream().mapToLong(payload -> slabBytes(payload.inputs())).max()
                .orElseThrow();
            try (ServerFrontends frontends = startFrontends(core, largest);
                 IpcServer ipc = startIpc(core, largest, payloads.size()))
            {
                // Ctrl-C: remove the shared-memory file rather than leave it in /dev/shm.
                final Thread hook = new Thread(ipc::close, "perf-transports-stop");
                Runtime.getRuntime().addShutdownHook(hook);
                try
                {
                    out().printf(Locale.ROOT, "*** Comparing transports for model %s: in-process, IPC '%s', HTTP"
                        + " 127.0.0.1:%d, gRPC 127.0.0.1:%d; idle mode %s; warm-up %d, %d rounds of %d requests"
                        + " ***%n", model, ipc.name(), frontends.httpPort(), frontends.grpcPort(), idleMode, warmup,
                        rounds, requests);
                    final TransportComparison comparison = new TransportComparison(warmup, rounds, requests);
                    for (final Payload payload : payloads)
                    {
                        sizes.add(measure(comparison, core, frontends, ipc.name(), payload));
                    }
                }
                finally
                {
                    PerfCommand.removeHook(hook);
                }
            }
        }
        final TransportReport report = new TransportReport(model, commandLine(), RunReport.Machine.current(),
            started, idleMode.name(), warmup, rounds, requests, sizes);
        out().println();
        report.print(out());
        write(report);
        return 0;
    }

    private void validate()
    {
        if (!Files.isDirectory(repository))
        {
            throw PerfException.usage("--model-repository " + repository + " is not a directory");
        }
        if (elements.isEmpty() || elements.stream().anyMatch(n -> n < 1))
        {
            throw PerfException.usage("--elements needs whole numbers >= 1, e.g. 1,262144; got " + elements);
        }
        if (warmup < 0)
        {
            throw PerfException.usage("--warmup must be >= 0 requests, got " + warmup);
        }
        if (rounds < 1)
        {
            throw PerfException.usage("--rounds must be at least 1, got " + rounds);
        }
        if (requests < 1)
        {
            throw PerfException.usage("--requests must be at least 1, got " + requests);
        }
    }

    /** Loads only the measured model: the other models' threads would only add noise. */
    private InferenceCore openCore()
    {
        try
        {
            return InferenceCore.open(CoreOptions.builder().modelRepository(repository)
                .controlMode(ModelControlMode.EXPLICIT).startupModel(model).idleMode(idleMode).build());
        }
        catch (final InferenceException ex)
        {
            throw PerfException.failure("cannot open model repository " + repository + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * One payload size.
     *
     * @param elements elements of each input's variable dimension
     * @param inputs   the request tensors
     */
    private record Payload(long elements, RequestInputs inputs)
    {
    }

    /** The request tensors of each size: every input's variable dimension set to that many elements. */
    private List<Payload> payloads(final ModelSource.ModelInfo info)
    {
        final List<String> variable = new ArrayList<>();
        for (final TensorMetadata input : info.inputs())
        {
            final List<Long> shape = input.shape();
            final List<Long> dims = info.maxBatchSize() > 0 && !shape.isEmpty() ? shape.subList(1, shape.size())
                : shape;
            final long count = dims.stream().filter(dim -> dim < 0).count();
            if (count > 1)
            {
                throw PerfException.usage("input '" + input.name() + "' of model '" + model + "' has " + count
                    + " variable dimensions " + dims + "; --elements sizes inputs with one");
            }
            if (count == 1)
            {
                variable.add(input.name());
            }
        }
        if (variable.isEmpty())
        {
            throw PerfException.usage("model '" + model + "' has only fixed input shapes, so --elements cannot size"
                + " its payload; measure a model with a variable dimension (e.g. identity)");
        }
        final List<Payload> payloads = new ArrayList<>();
        for (final long count : elements)
        {
            final Map<String, long[]> shapes = new HashMap<>();
            for (final TensorMetadata input : info.inputs())
            {
                if (variable.contains(input.name()))
                {
                    final List<Long> shape = input.shape();
                    final List<Long> dims = info.maxBatchSize() > 0 ? shape.subList(1, shape.size()) : shape;
                    shapes.put(input.name(), dims.stream().mapToLong(dim -> dim < 0 ? count : dim).toArray());
                }
            }
            payloads.add(new Payload(count, RequestInputs.resolve(model, "", info.maxBatchSize(), info.inputs(),
                info.outputs(), 1, shapes, Map.of(), 1)));
        }
        return payloads;
    }

    /** Input area a payload takes in an IPC slab: every tensor 64-byte aligned, in whole slab granules. */
    private static long slabBytes(final RequestInputs payload)
    {
        long bytes = 0;
        for (final RequestInputs.Tensor tensor : payload.inputs())
        {
            bytes += (tensor.data().length + 63) & -64L;
        }
        final long granule = IpcLayout.SLAB_GRANULE;
        return Math.max(granule, (bytes + granule - 1) / granule * granule);
    }

    private static ServerFrontends startFrontends(final InferenceCore core, final long largestRequest)
    {
        final long maxBody = Math.min(Integer.MAX_VALUE, largestRequest + (1L << 20));
        try
        {
            return ServerFrontends.start(core, FrontendOptions.defaults().withHost("127.0.0.1").withPorts(0, 0, -1)
                .withMaxHttpRequestBytes(maxBody));
        }
        catch (final IllegalStateException ex)
        {
            throw PerfException.failure("cannot start the HTTP and gRPC frontends on loopback: " + ex.getMessage(),
                ex);
        }
    }

    /**
     * An IPC server under a name of this process, with a slot for each size's connection (a closed connection's slot
     * is reclaimed in the background, so sizes do not share one) and an output area of twice the input area.
     */
    private IpcServer startIpc(final InferenceCore core, final long inputArea, final int sizeCount)
    {
        final String name = "perf-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
        try
        {
            return IpcServer.start(core, name, IpcServerOptions.builder().maxClients(sizeCount + 1)
                .slabBytes(3 * inputArea).slabInputBytes(inputArea).idleMode(idleMode).build());
        }
        catch (final IpcException | IllegalArgumentException ex)
        {
            throw PerfException.failure("cannot start an IPC server for payloads of " + TransportReport.bytes(
                inputArea) + ": " + ex.getMessage(), ex);
        }
    }

    private TransportReport.Size measure(final TransportComparison comparison, final InferenceCore core,
        final ServerFrontends frontends, final String ipcName, final Payload payload)
        throws InterruptedException
    {
        final long bytes = payload.inputs().requestBytes();
        final String label = TransportReport.payloadLabel(payload.elements(), bytes);
        final InProcessTarget inProcess = new InProcessTarget(core, repository.toString(), model, "");
        final List<LoadTarget> targets = new ArrayList<>();
        final List<LoadClient> clients = new ArrayList<>();
        try
        {
            targets.add(inProcess);
            targets.add(new IpcTarget(ipcName, model, "", inProcess));
            targets.add(new HttpTarget("127.0.0.1:" + frontends.httpPort(), model, ""));
            targets.add(new GrpcTarget("127.0.0.1:" + frontends.grpcPort(), model, ""));
            final List<String> names = List.of(TransportReport.IN_PROCESS, TransportReport.IPC, TransportReport.HTTP,
                TransportReport.GRPC);
            final List<TransportComparison.Lane> lanes = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++)
            {
                final LoadTarget target = targets.get(i);
                target.prepare(payload.inputs());
                final LoadClient client = target.newClient();
                clients.add(client);
                lanes.add(new TransportComparison.Lane(names.get(i), target.describe(), client));
            }
            final List<TransportComparison.Result> results = comparison.measure(lanes, label,
                phase -> out().printf(Locale.ROOT, "    %s: %s%n", label, phase));
            return new TransportReport.Size(payload.elements(), bytes, results);
        }
        finally
        {
            clients.forEach(LoadClient::close);
            targets.forEach(LoadTarget::close);
        }
    }

    private String commandLine()
    {
        final List<String> args = spec.commandLine().getParseResult().originalArgs();
        final int own = args.indexOf(spec.name());
        final List<String> options = own >= 0 ? args.subList(own + 1, args.size()) : args;
        return "ingot perf transports " + String.join(" ", options.stream().map(PerfCommand::shellQuoted).toList());
    }

    private void write(final TransportReport report)
    {
        try
        {
            if (json != null)
            {
                report.writeJson(json);
                out().println("wrote " + json);
            }
            if (markdown != null)
            {
                ReportFiles.write(markdown, report.markdown());
                out().println("wrote " + markdown);
            }
        }
        catch (final IOException ex)
        {
            throw PerfException.failure("cannot write the report: " + ex, ex);
        }
    }
}
