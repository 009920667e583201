package io.ingot.server.grpc;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.NettyServerBuilder;
import io.ingot.api.InferenceCore;
import io.ingot.server.access.RestrictedApis;
import io.ingot.server.net.ConnectionLimiter;
import io.ingot.server.net.GuardedServerSocketChannel;
import io.ingot.server.net.RateLimitedLog;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC listener (Triton's port 8001): {@code inference.GRPCInferenceService} and {@code grpc.health.v1.Health}
 * on grpc-java's Netty transport, within {@link GrpcLimits} (Triton's message limit and keepalive settings, and a
 * connection limit and idle limit of Ingot's), with Triton's {@code --grpc-restricted-protocol} restrictions, and
 * with unparseable messages answered INVALID_ARGUMENT ({@link GrpcParseGuard}).
 *
 * <p>A graceful stop is {@link #stopAccepting()} (no new calls; calls in progress go on), {@link #awaitDrained(long)}
 * (every call answered), then {@link #close()}.
 */
public final class GrpcFrontend implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(GrpcFrontend.class.getName());

    private final Server server;

    private GrpcFrontend(final Server server)
    {
        this.server = server;
    }

    /**
     * Binds the listener.
     *
     * @param core         the core
     * @param sharedMemory registered regions
     * @param host         address to bind
     * @param port         port, 0 for an ephemeral one
     * @param limits       message size, connections, keepalive and idle limits
     * @param restricted   methods restricted to a header
     * @param boss         accepting event loop
     * @param workers      connection event loops
     * @param executor     where RPC handlers run (they may block in model load and unload)
     * @return the started listener
     */
    public static GrpcFrontend bind(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final String host, final int port, final GrpcLimits limits, final RestrictedApis restricted,
        final EventLoopGroup boss, final EventLoopGroup workers, final Executor executor)
    {
        final RateLimitedLog badMessages = new RateLimitedLog(LOG, System.Logger.Level.WARNING,
            RateLimitedLog.DEFAULT_INTERVAL_NANOS);
        final GrpcRestrictions restrictions = new GrpcRestrictions(restricted);
        final Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
            .channelFactory(GuardedServerSocketChannel.factory("gRPC", new ConnectionLimiter(limits.maxConnections())))
            .bossEventLoopGroup(boss)
            .workerEventLoopGroup(workers)
            .maxInboundMessageSize(limits.maxMessageBytes())
            .keepAliveTime(limits.keepAliveTimeMillis(), TimeUnit.MILLISECONDS)
            .keepAliveTimeout(limits.keepAliveTimeoutMillis(), TimeUnit.MILLISECONDS)
            .permitKeepAliveTime(limits.permitKeepAliveMillis(), TimeUnit.MILLISECONDS)
            .permitKeepAliveWithoutCalls(limits.permitKeepAliveWithoutCalls())
            .maxConnectionIdle(limits.maxConnectionIdleMillis(), TimeUnit.MILLISECONDS)
            .executor(executor)
            .addService(ServerInterceptors.intercept(GrpcParseGuard.guard(
                new GrpcInferenceService(core, sharedMemory, ByteBufAllocator.DEFAULT).bindService(), badMessages),
                restrictions))
            .addService(ServerInterceptors.intercept(GrpcParseGuard.guard(new GrpcHealthService(core).bindService(),
                badMessages), restrictions))
            .build();
        try
        {
            server.start();
        }
        catch (final IOException failure)
        {
            throw new UncheckedIOException("cannot start the gRPC listener on " + host + ":" + port, failure);
        }
        return new GrpcFrontend(server);
    }

    /** @return the bound port. */
    public int port()
    {
        return server.getPort();
    }

    /** Stops accepting connections and calls; calls in progress go on. Idempotent. */
    public void stopAccepting()
    {
        server.shutdown();
    }

    /**
     * Waits until every call in progress was answered.
     *
     * @param deadlineNanos the {@link System#nanoTime()} to give up at
     * @return true when none is left
     * @throws InterruptedException when interrupted
     */
    public boolean awaitDrained(final long deadlineNanos) throws InterruptedException
    {
        server.shutdown();
        return server.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Stops accepting calls, lets running calls finish for a moment, then cancels the rest. */
    @Override
    public void close()
    {
        server.shutdown();
        try
        {
            if (!server.awaitTermination(5, TimeUnit.SECONDS))
            {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException interrupted)
        {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
