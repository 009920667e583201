package io.ingot.server;

import io.ingot.api.InferenceCore;
import io.ingot.server.grpc.GrpcFrontend;
import io.ingot.server.http.HttpFrontend;
import io.ingot.server.metrics.MetricsFrontend;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Ingot's network frontends over one core: KServe v2 over HTTP/REST and gRPC, with Triton's extensions (binary
 * tensors, system shared memory, statistics, model repository), and Prometheus metrics. Both protocols share one
 * shared-memory registry.
 *
 * <pre>{@code
 * try (InferenceCore core = InferenceCore.open(options);
 *      ServerFrontends frontends = ServerFrontends.start(core, "127.0.0.1", 8000, 8001, 8002, 64L << 20))
 * {
 *     ... // serve until shutdown
 * }
 * }</pre>
 *
 * <p>Closing stops the listeners; it does not close the core.
 */
public final class ServerFrontends implements AutoCloseable
{
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService blockingExecutor;
    private final SystemSharedMemoryRegistry sharedMemory;
    private HttpFrontend http;
    private GrpcFrontend grpc;
    private MetricsFrontend metrics;

    private ServerFrontends(final FrontendOptions options)
    {
        this.boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(options.httpThreads(), NioIoHandler.newFactory());
        // Model load/unload and gRPC handlers may block: virtual threads keep them off the event loops for free.
        this.blockingExecutor = Executors.newVirtualThreadPerTaskExecutor();
        this.sharedMemory = new SystemSharedMemoryRegistry(Path.of("/dev/shm"), options.allowClientShm());
    }

    /**
     * Starts the three listeners with Triton's defaults otherwise (client shared memory allowed, gRPC messages up to
     * INT32_MAX).
     *
     * @param core            the core to serve
     * @param host            address to bind ({@code 127.0.0.1} for local clients only)
     * @param httpPort        HTTP port; 0 = ephemeral, negative = no HTTP listener
     * @param grpcPort        gRPC port; 0 = ephemeral, negative = no gRPC listener
     * @param metricsPort     metrics port; 0 = ephemeral, negative = no metrics listener
     * @param maxRequestBytes largest HTTP request body
     * @return the running frontends
     */
    public static ServerFrontends start(final InferenceCore core, final String host, final int httpPort,
        final int grpcPort, final int metricsPort, final long maxRequestBytes)
    {
        return start(core, FrontendOptions.defaults().withHost(host).withPorts(httpPort, grpcPort, metricsPort)
            .withMaxHttpRequestBytes(maxRequestBytes));
    }

    /**
     * Starts the listeners the options enable.
     *
     * @param core    the core to serve
     * @param options ports, limits and threads
     * @return the running frontends
     * @throws IllegalStateException when a listener cannot bind (the message names the address)
     */
    public static ServerFrontends start(final InferenceCore core, final FrontendOptions options)
    {
        final ServerFrontends frontends = new ServerFrontends(options);
        try
        {
            if (options.httpPort() >= 0)
            {
                frontends.http = HttpFrontend.bind(core, frontends.sharedMemory, options.host(), options.httpPort(),
                    (int) options.maxHttpRequestBytes(), frontends.boss, frontends.workers,
                    frontends.blockingExecutor);
            }
            if (options.grpcPort() >= 0)
            {
                frontends.grpc = GrpcFrontend.bind(core, frontends.sharedMemory, options.host(), options.grpcPort(),
                    options.maxGrpcMessageBytes(), frontends.blockingExecutor);
            }
            if (options.metricsPort() >= 0)
            {
                frontends.metrics = MetricsFrontend.bind(MetricsFrontend.registryFor(core), options.host(),
                    options.metricsPort(), frontends.boss, frontends.workers);
            }
            return frontends;
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
            frontends.close();
            throw new IllegalStateException("interrupted while starting the frontends", interrupted);
        }
        catch (final RuntimeException failure)
        {
            frontends.close();
            throw new IllegalStateException("cannot start the frontends on " + options.host() + " (HTTP "
                + options.httpPort() + ", gRPC " + options.grpcPort() + ", metrics " + options.metricsPort() + "): "
                + failure.getMessage(), failure);
        }
    }

    /** @return the bound HTTP port, or -1 when HTTP is disabled. */
    public int httpPort()
    {
        return http == null ? -1 : http.port();
    }

    /** @return the bound gRPC port, or -1 when gRPC is disabled. */
    public int grpcPort()
    {
        return grpc == null ? -1 : grpc.port();
    }

    /** @return the bound metrics port, or -1 when metrics are disabled. */
    public int metricsPort()
    {
        return metrics == null ? -1 : metrics.port();
    }

    /** @return the system shared-memory regions clients registered. */
    public SystemSharedMemoryRegistry sharedMemory()
    {
        return sharedMemory;
    }

    /** Stops the listeners and their threads, and unregisters every shared-memory region. The core stays open. */
    @Override
    public void close()
    {
        if (http != null)
        {
            http.close();
        }
        if (metrics != null)
        {
            metrics.close();
        }
        if (grpc != null)
        {
            grpc.close();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        blockingExecutor.shutdown();
        sharedMemory.close();
    }
}
