package io.ingot.cli;

import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.server.Frontend;
import io.ingot.server.RunningFrontend;
import io.ingot.server.ServeOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ingot serve}: loads every model of the repositories, prints the model table, starts the frontends found on
 * the class path and serves until interrupted.
 *
 * <p>On SIGINT (Ctrl-C) or SIGTERM it stops gracefully, within {@code --exit-timeout-secs} (Triton's option, default
 * 30): every frontend stops accepting connections and requests; the core closes, answering every queued request
 * UNAVAILABLE and letting running batches finish; every frontend delivers the answers of the requests it took; then
 * the frontends close and the process exits (0, or 1 when the timeout cut the drain short). A second signal exits
 * at once ({@link ShutdownSignals}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Load every model of the repositories and serve them until interrupted (Ctrl-C).")
final class ServeCommand implements Callable<Integer>
{
    @Mixin
    RepositoryOptions repository = new RepositoryOptions();

    @Option(names = "--model-control-mode", paramLabel = "MODE", defaultValue = "none",
        description = "none: load every model at start-up (default); explicit: load only --load-model models.")
    String controlMode;

    @Option(names = "--load-model", paramLabel = "MODEL",
        description = "With --model-control-mode explicit, a model to load at start-up ('*' for all).")
    List<String> loadModels = List.of();

    @Option(names = "--exit-on-error", description = "Stop with exit code 1 when a model fails to load"
        + " (default: keep serving the others).")
    boolean exitOnError;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
        description = "Address the network frontends bind (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8000",
        description = "KServe v2 HTTP port (default ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--grpc-port", paramLabel = "PORT", defaultValue = "8001",
        description = "KServe v2 gRPC port (default ${DEFAULT-VALUE}).")
    int grpcPort;

    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "8002",
        description = "Prometheus metrics port (default ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--ipc", paramLabel = "NAME",
        description = "Also serve clients of other processes through shared memory under this name.")
    String ipcName;

    @Option(names = "--frontend-setting", paramLabel = "KEY=VALUE",
        description = "A setting passed to the frontends (each reads the keys it knows).")
    Map<String, String> frontendSettings = new LinkedHashMap<>();

    @Option(names = "--http-restricted-api", paramLabel = "<apis>:<key>=<value>",
        description = "Triton's option: HTTP endpoints of the comma-separated APIs (health, metadata, inference, "
            + "shared-memory, model-config, model-repository, statistics, trace, logging) answer only requests with "
            + "header <key>: <value> (others get 403). Repeatable, one API per option at most.")
    List<String> httpRestrictedApi = new ArrayList<>();

    @Option(names = "--grpc-restricted-protocol", paramLabel = "<protocols>:<key>=<value>",
        description = "Triton's option: gRPC methods of the comma-separated protocols (as --http-restricted-api) "
            + "answer only calls with metadata triton-grpc-protocol-<key>: <value> (others get UNAVAILABLE).")
    List<String> grpcRestrictedProtocol = new ArrayList<>();

    @Option(names = "--exit-timeout-secs", paramLabel = "SECONDS", defaultValue = "30",
        description = "On SIGINT/SIGTERM, how long to wait for requests in flight before exiting anyway "
            + "(default ${DEFAULT-VALUE}, Triton's).")
    int exitTimeoutSecs;

    private final CoreOpener opener;
    private final PrintStream out;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch serving = new CountDownLatch(1);

    /**
     * @param opener opens the core
     * @param out    where the table and messages go
     */
    ServeCommand(final CoreOpener opener, final PrintStream out)
    {
        this.opener = opener;
        this.out = out;
    }

    @Override
    public Integer call() throws Exception
    {
        final var options = repository.coreOptions();
        switch (controlMode)
        {
            case "none" -> options.controlMode(ModelControlMode.NONE);
            case "explicit" ->
            {
                options.controlMode(ModelControlMode.EXPLICIT);
                loadModels.forEach(options::startupModel);
            }
            default -> throw CliException.usage("--model-control-mode must be none or explicit, was '" + controlMode
                + "'");
        }
        if (exitTimeoutSecs < 0)
        {
            throw CliException.usage("--exit-timeout-secs must be 0 or more, was " + exitTimeoutSecs);
        }
        final InferenceCore core = opener.open(options.build());
        final Deque<RunningFrontend> frontends = new ArrayDeque<>();
        final Thread hook = Thread.ofPlatform().unstarted(this::requestStopAndWait);
        Runtime.getRuntime().addShutdownHook(hook);
        boolean closed = false;
        try (ShutdownSignals ignored = ShutdownSignals.install(this::stop, out))
        {
            final ModelTable table = ModelTable.of(core);
            table.print(out);
            out.println();
            if (exitOnError && !table.failures().isEmpty())
            {
                throw CliException.failure(table.failures().size() + " model(s) failed to load (--exit-on-error)");
            }
            startFrontends(core, frontends);
            out.println("Ingot is serving " + table.rows().stream().filter(ModelTable.Row::ok).count()
                + " model version(s). Press Ctrl-C to stop.");
            out.flush();
            serving.countDown();
            stopRequested.await();
            closed = true;
            return stopGracefully(core, frontends);
        }
        finally
        {
            if (!closed)
            {
                closeAll(frontends);
                core.close();
            }
            out.println("Stopped.");
            out.flush();
            stopped.countDown();
            removeHook(hook);
        }
    }

    /**
     * Stops accepting everywhere, closes the core, waits for every frontend to deliver its answers, closes the
     * frontends; all within the exit timeout.
     *
     * @return 0 when every request was answered in time, 1 when the timeout cut the drain short
     */
    private int stopGracefully(final InferenceCore core, final Deque<RunningFrontend> frontends)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(exitTimeoutSecs);
        out.println("Stopping: accepting no new requests; answering those in flight (at most " + exitTimeoutSecs
            + " s)...");
        out.flush();
        for (final RunningFrontend frontend : frontends)
        {
            try
            {
                frontend.stopAccepting();
            }
            catch (final RuntimeException e)
            {
                System.err.println("warning: a frontend failed to stop accepting: " + e.getMessage());
            }
        }
        // The core answers queued requests UNAVAILABLE and lets running batches finish; the frontends deliver.
        final Thread closer = Thread.ofPlatform().name("ingot-core-close").start(core::close);
        closer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        boolean drained = !closer.isAlive();
        for (final RunningFrontend frontend : frontends)
        {
            drained &= frontend.awaitDrained(deadline);
        }
        if (!drained)
        {
            out.println("Exit timeout of " + exitTimeoutSecs + " s reached with requests still in flight: exiting "
                + "without their answers.");
        }
        closeAll(frontends);
        return drained ? 0 : 1;
    }

    private void startFrontends(final InferenceCore core, final Deque<RunningFrontend> started) throws Exception
    {
        final ServeOptions options = new ServeOptions(host, httpPort, grpcPort, metricsPort,
            Optional.ofNullable(ipcName), frontendSettings, httpRestrictedApi, grpcRestrictedProtocol);
        int count = 0;
        for (final Frontend frontend : ServiceLoader.load(Frontend.class))
        {
            if (!frontend.isEnabled(options))
            {
                continue;
            }
            try
            {
                started.push(frontend.start(core, options));
            }
            catch (final Exception e)
            {
                throw CliException.failure("frontend '" + frontend.name() + "' could not start: " + e.getMessage());
            }
            out.println("Started " + frontend.describe(options));
            count++;
        }
        if (count == 0)
        {
            out.println("No network frontends are on the class path: only the in-process API is available"
                + " (HTTP " + host + ":" + httpPort + ", gRPC :" + grpcPort + ", metrics :" + metricsPort
                + (ipcName == null ? "" : ", shared memory '" + ipcName + "'") + " are not served).");
        }
    }

    private static void closeAll(final Deque<RunningFrontend> frontends)
    {
        while (!frontends.isEmpty())
        {
            try
            {
                frontends.pop().close();
            }
            catch (final Exception e)
            {
                System.err.println("warning: a frontend failed to stop cleanly: " + e.getMessage());
            }
        }
    }

    private void requestStopAndWait()
    {
        stopRequested.countDown();
        try
        {
            stopped.await(exitTimeoutSecs + 10L, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // The hook itself is running: the JVM is exiting, nothing to remove.
        }
    }

    /**
     * Asks a running {@code serve} to stop, as SIGINT does. For tests and embedders.
     */
    void stop()
    {
        stopRequested.countDown();
    }

    /**
     * @param timeout how long to wait
     * @param unit    its unit
     * @return true once the models are loaded and the frontends started
     * @throws InterruptedException when interrupted
     */
    boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return serving.await(timeout, unit);
    }
}
