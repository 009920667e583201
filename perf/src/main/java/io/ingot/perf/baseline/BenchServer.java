package io.ingot.perf.baseline;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.server.ServerFrontends;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Serves a model repository over KServe v2 HTTP and gRPC for the network measurements of {@code ingot perf}: a core
 * and the server module's frontends in one process, until the process is stopped. It exists because
 * {@code ingot serve} does not start the network frontends yet (they are not registered as {@code io.ingot.cli.Frontend}s);
 * once it does, measure against {@code ingot serve} instead.
 */
@Command(name = "bench-server", mixinStandardHelpOptions = true,
    description = "Serves a model repository over KServe v2 HTTP and gRPC until stopped.")
public final class BenchServer implements Callable<Integer>
{
    @Option(names = "--model-repository", required = true, description = "The model repository.")
    private Path repository;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--http-port", defaultValue = "8000", description = "HTTP port (default ${DEFAULT-VALUE}).")
    private int httpPort;

    @Option(names = "--grpc-port", defaultValue = "8001", description = "gRPC port (default ${DEFAULT-VALUE}).")
    private int grpcPort;

    /**
     * @param args the options
     */
    public static void main(final String[] args)
    {
        final int code = new CommandLine(new BenchServer()).execute(args);
        if (code != 0)
        {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws InterruptedException
    {
        final InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
        final ServerFrontends frontends = ServerFrontends.start(core, host, httpPort, grpcPort, -1, 1L << 30);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            frontends.close();
            core.close();
            stopped.countDown();
        }, "bench-server-stop"));
        System.out.println("serving " + repository + ": HTTP " + host + ":" + frontends.httpPort() + ", gRPC " + host
            + ":" + frontends.grpcPort() + " " + core.repositoryIndex(false));
        stopped.await();
        return 0;
    }
}
