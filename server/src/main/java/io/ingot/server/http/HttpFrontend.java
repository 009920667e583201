package io.ingot.server.http;

import io.ingot.api.InferenceCore;
import io.ingot.server.access.RestrictedApis;
import io.ingot.server.net.ConnectionLimiter;
import io.ingot.server.net.GuardedServerSocketChannel;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

/**
 * The KServe v2 HTTP/REST listener (Triton's port 8000): Netty's HTTP/1.1 codec, {@link HttpBodyAggregator} and
 * one {@link HttpApiHandler} per connection, within {@link HttpLimits}: a connection limit
 * ({@link GuardedServerSocketChannel}), per-connection deadlines ({@link HttpConnectionTimer}) and a memory budget
 * for request bodies ({@link RequestBodyBudget}).
 *
 * <p>A graceful stop is {@link #stopAccepting()} (the listening socket closes, responses from then on close their
 * connections), {@link #awaitDrained(long)} (every request received was answered), then {@link #close()}.
 */
public final class HttpFrontend implements AutoCloseable
{
    private static final int MAX_INITIAL_LINE = 8192;
    private static final int MAX_HEADER_BYTES = 16384;
    private static final int MAX_CHUNK_BYTES = 65536;

    private final Channel channel;
    private final HttpApi api;

    private HttpFrontend(final Channel channel, final HttpApi api)
    {
        this.channel = channel;
        this.api = api;
    }

    /**
     * Binds the listener.
     *
     * @param core             the core
     * @param sharedMemory     registered regions
     * @param host             address to bind
     * @param port             port, 0 for an ephemeral one
     * @param maxInputBytes    Triton's {@code --http-max-input-size}: the largest request JSON, JSON tensor, raw input
     *                         and decompressed body ({@link HttpInputLimit}); binary tensor data is not bounded by it
     * @param limits           connections, deadlines and body memory
     * @param restricted       endpoints restricted to a header
     * @param boss             accepting event loop
     * @param workers          connection event loops
     * @param blockingExecutor where blocking calls (model load/unload) run
     * @return the bound listener
     * @throws InterruptedException when interrupted while binding
     */
    public static HttpFrontend bind(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final String host, final int port, final long maxInputBytes, final HttpLimits limits,
        final RestrictedApis restricted, final EventLoopGroup boss, final EventLoopGroup workers,
        final ExecutorService blockingExecutor) throws InterruptedException
    {
        final HttpApi api = HttpApi.of(core, sharedMemory, blockingExecutor, new HttpInputLimit(maxInputBytes),
            new RequestBodyBudget(limits.bodyMemoryBytes()), restricted);
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(boss, workers)
            .channelFactory(GuardedServerSocketChannel.factory("HTTP", new ConnectionLimiter(limits.maxConnections())))
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    api.drain().opened(ch);
                    final HttpConnectionTimer timer = new HttpConnectionTimer(limits);
                    ch.pipeline().addLast("deadline", timer.bytesHandler());
                    ch.pipeline().addLast("codec", new HttpServerCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(MAX_INITIAL_LINE)
                        .setMaxHeaderSize(MAX_HEADER_BYTES)
                        .setMaxChunkSize(MAX_CHUNK_BYTES)));
                    ch.pipeline().addLast("progress", timer.messageHandler());
                    ch.pipeline().addLast("body", new HttpBodyAggregator(api.inputLimit(), api.budget()));
                    ch.pipeline().addLast("api", new HttpApiHandler(api, timer));
                }
            });
        final Channel bound = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        return new HttpFrontend(bound, api);
    }

    /** @return the bound port. */
    public int port()
    {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** @return the memory request bodies hold now, and may hold at most */
    public RequestBodyBudget bodyBudget()
    {
        return api.budget();
    }

    /** @return the requests received and not yet answered */
    public int unanswered()
    {
        return api.drain().unanswered();
    }

    /**
     * Stops accepting connections; requests on open connections are still served, and each response closes its
     * connection. Idempotent.
     */
    public void stopAccepting()
    {
        api.drain().startDraining();
        channel.close().syncUninterruptibly();
    }

    /**
     * Waits until every request received was answered.
     *
     * @param deadlineNanos the {@link System#nanoTime()} to give up at
     * @return true when none is left unanswered
     * @throws InterruptedException when interrupted
     */
    public boolean awaitDrained(final long deadlineNanos) throws InterruptedException
    {
        return api.drain().awaitAnswered(deadlineNanos);
    }

    /** Stops accepting and closes every connection (the event loops are shut down by their owner). */
    @Override
    public void close()
    {
        stopAccepting();
        api.drain().closeConnections();
    }
}
