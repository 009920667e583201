package io.ingot.server;

import io.ingot.server.access.RestrictedApis;
import io.ingot.server.access.ApiCategory;
import io.ingot.api.InferenceCore;
import io.ingot.server.grpc.GrpcFrontend;
import io.ingot.server.http.HttpFrontend;
import io.ingot.server.metrics.MetricsFrontend;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.trace.TraceManager;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * <p>Closing stops the listeners; it does not close the core. A graceful stop is {@link #stopAccepting()}, then the
 * core's close, then {@link #awaitDrained(long)}, then {@link #close()} ({@link RunningFrontend}).
 *
 * <p>Bound to an address other than loopback, the frontends log a warning that model control and shared-memory
 * registration are open to anyone who can reach them, unless both are restricted
 * ({@code --http-restricted-api} and {@code --grpc-restricted-protocol}).
 */
public final class ServerFrontends implements RunningFrontend
{
    private static final System.Logger LOG = System.getLogger(ServerFrontends.class.getName());

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final EventLoopGroup grpcBoss;
    private final EventLoopGroup grpcWorkers;
    private final ExecutorService blockingExecutor;
    private final SystemSharedMemoryRegistry sharedMemory;
    private HttpFrontend http;
    private GrpcFrontend grpc;
    private MetricsFrontend metrics;
    private InferenceCore core;

    private ServerFrontends(final FrontendOptions options)
    {
        this.boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(options.httpThreads(), NioIoHandler.newFactory());
        this.grpcBoss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.grpcWorkers = new MultiThreadIoEventLoopGroup(options.httpThreads(), NioIoHandler.newFactory());
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
     * @param maxRequestBytes Triton's {@code --http-max-input-size} ({@link FrontendOptions#maxHttpRequestBytes()})
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
        frontends.core = core;
        try
        {
            if (options.httpPort() >= 0)
            {
                frontends.http = HttpFrontend.bind(core, frontends.sharedMemory, options.host(), options.httpPort(),
                    options.maxHttpRequestBytes(), options.httpLimits(), options.httpRestricted(),
                    frontends.boss, frontends.workers, frontends.blockingExecutor);
            }
            if (options.grpcPort() >= 0)
            {
                frontends.grpc = GrpcFrontend.bind(core, frontends.sharedMemory, options.host(), options.grpcPort(),
                    options.grpcLimits(), options.grpcRestricted(), frontends.grpcBoss, frontends.grpcWorkers,
                    frontends.blockingExecutor);
            }
            if (options.metricsPort() >= 0)
            {
                frontends.metrics = MetricsFrontend.bind(MetricsFrontend.registryFor(core), core.customMetrics(),
                    options.host(), options.metricsPort(), frontends.boss, frontends.workers);
            }
            warnIfExposed(options).ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, warning));
            return frontends;
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
            frontends.close();
            throw new IllegalStateException("interrupted while starting the frontends", interrupted);
        }
        catch (final Exception failure)
        {
            // Netty's sync() rethrows a BindException undeclared: catch every failure here.
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

    /**
     * @param options the frontends' options
     * @return the warning to log when they bind an address other than loopback with model control or
     *         shared-memory registration open to every client, empty otherwise
     */
    public static Optional<String> warnIfExposed(final FrontendOptions options)
    {
        if (isLoopback(options.host()))
        {
            return Optional.empty();
        }
        final List<String> open = new ArrayList<>();
        if (options.httpPort() >= 0)
        {
            openOf("HTTP", options.httpRestricted(), "--http-restricted-api", open);
        }
        if (options.grpcPort() >= 0)
        {
            openOf("gRPC", options.grpcRestricted(), "--grpc-restricted-protocol", open);
        }
        if (open.isEmpty())
        {
            return Optional.empty();
        }
        return Optional.of("the frontends listen on " + options.host() + ", not only on loopback, and "
            + String.join("; ", open) + ": any client that reaches this address can load and unload models and "
            + "make the server read and write its shared memory. Restrict them to clients that send a secret "
            + "header, e.g. --http-restricted-api model-repository,shared-memory:admin-key=SECRET "
            + "--grpc-restricted-protocol model-repository,shared-memory:admin-key=SECRET (README, \"Exposing "
            + "Ingot\")");
    }

    private static void openOf(final String protocol, final RestrictedApis restricted, final String option,
        final List<String> open)
    {
        final List<String> categories = new ArrayList<>();
        for (final ApiCategory category : new ApiCategory[] {ApiCategory.MODEL_REPOSITORY, ApiCategory.SHARED_MEMORY})
        {
            if (!restricted.isRestricted(category))
            {
                categories.add(category.tritonName());
            }
        }
        if (!categories.isEmpty())
        {
            open.add(protocol + " " + String.join(" and ", categories) + " are unauthenticated (no " + option + ")");
        }
    }

    private static boolean isLoopback(final String host)
    {
        try
        {
            return InetAddress.getByName(host).isLoopbackAddress();
        }
        catch (final UnknownHostException unknown)
        {
            return false;
        }
    }

    /** Stops accepting connections and requests on every listener; requests already taken are still answered. */
    @Override
    public void stopAccepting()
    {
        if (http != null)
        {
            http.stopAccepting();
        }
        if (grpc != null)
        {
            grpc.stopAccepting();
        }
        if (metrics != null)
        {
            metrics.close();
        }
    }

    /**
     * Waits until every HTTP request and gRPC call taken was answered.
     *
     * @param deadlineNanos the {@link System#nanoTime()} to give up at
     * @return true when none is left
     * @throws InterruptedException when interrupted
     */
    @Override
    public boolean awaitDrained(final long deadlineNanos) throws InterruptedException
    {
        boolean drained = true;
        if (http != null)
        {
            drained &= http.awaitDrained(deadlineNanos);
        }
        if (grpc != null)
        {
            drained &= grpc.awaitDrained(deadlineNanos);
        }
        return drained;
    }

    /** @return the HTTP listener, or {@code null} when HTTP is disabled */
    public HttpFrontend http()
    {
        return http;
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
        grpcBoss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        grpcWorkers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        blockingExecutor.shutdown();
        sharedMemory.close();
        if (core != null)
        {
            TraceManager.closeFor(core);  // writes out buffered traces, closes the trace files
        }
    }
}
