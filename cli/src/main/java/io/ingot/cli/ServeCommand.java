package io.ingot.cli;

import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.server.Frontend;
import io.ingot.server.ServeOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayDeque;
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
 * the class path and serves until interrupted. On SIGINT or SIGTERM the frontends stop first, then the core closes,
 * answering every queued request (with UNAVAILABLE) and letting executing batches finish.
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
        final InferenceCore core = opener.open(options.build());
        final Deque<AutoCloseable> frontends = new ArrayDeque<>();
        final Thread hook = Thread.ofPlatform().unstarted(this::requestStopAndWait);
        Runtime.getRuntime().addShutdownHook(hook);
        try
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
            out.println("Stopping: closing frontends, then answering queued requests...");
            return 0;
        }
        finally
        {
            closeAll(frontends);
            core.close();
            out.println("Stopped.");
            out.flush();
            stopped.countDown();
            removeHook(hook);
        }
    }

    private void startFrontends(final InferenceCore core, final Deque<AutoCloseable> started) throws Exception
    {
        final ServeOptions options = new ServeOptions(host, httpPort, grpcPort, metricsPort,
            Optional.ofNullable(ipcName), frontendSettings);
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

    private static void closeAll(final Deque<AutoCloseable> frontends)
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
            stopped.await(60, TimeUnit.SECONDS);
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
