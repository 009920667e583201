package io.ingot.server.grpc;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.ingot.api.InferenceCore;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC listener (Triton's port 8001): {@code inference.GRPCInferenceService} and {@code grpc.health.v1.Health}
 * on grpc-java's Netty transport, with the inbound message limit raised to what Triton and its clients use
 * (INT32_MAX unless configured lower).
 */
public final class GrpcFrontend implements AutoCloseable
{
    private final Server server;

    private GrpcFrontend(final Server server)
    {
        this.server = server;
    }

    /**
     * Binds the listener.
     *
     * @param core            the core
     * @param sharedMemory    registered regions
     * @param host            address to bind
     * @param port            port, 0 for an ephemeral one
     * @param maxMessageBytes the largest inbound message
     * @param executor        where RPC handlers run (they may block in model load and unload)
     * @return the started listener
     */
    public static GrpcFrontend bind(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final String host, final int port, final int maxMessageBytes, final Executor executor)
    {
        final Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
            .maxInboundMessageSize(maxMessageBytes)
            .executor(executor)
            .addService(new GrpcInferenceService(core, sharedMemory, ByteBufAllocator.DEFAULT))
            .addService(new GrpcHealthService(core))
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
