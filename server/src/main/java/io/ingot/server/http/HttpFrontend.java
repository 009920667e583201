package io.ingot.server.http;

import io.ingot.api.InferenceCore;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

/**
 * The KServe v2 HTTP/REST listener (Triton's port 8000): Netty's HTTP/1.1 codec, {@link HttpBodyAggregator} and
 * one {@link HttpApiHandler} per connection.
 */
public final class HttpFrontend implements AutoCloseable
{
    private static final int MAX_INITIAL_LINE = 8192;
    private static final int MAX_HEADER_BYTES = 16384;
    private static final int MAX_CHUNK_BYTES = 65536;

    private final Channel channel;

    private HttpFrontend(final Channel channel)
    {
        this.channel = channel;
    }

    /**
     * Binds the listener.
     *
     * @param core             the core
     * @param sharedMemory     registered regions
     * @param host             address to bind
     * @param port             port, 0 for an ephemeral one
     * @param maxBodyBytes     the largest request body accepted (compressed and decompressed)
     * @param boss             accepting event loop
     * @param workers          connection event loops
     * @param blockingExecutor where blocking calls (model load/unload) run
     * @return the bound listener
     * @throws InterruptedException when interrupted while binding
     */
    public static HttpFrontend bind(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final String host, final int port, final int maxBodyBytes, final EventLoopGroup boss,
        final EventLoopGroup workers, final ExecutorService blockingExecutor) throws InterruptedException
    {
        final HttpApi api = HttpApi.of(core, sharedMemory, blockingExecutor, maxBodyBytes);
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    ch.pipeline().addLast("codec", new HttpServerCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(MAX_INITIAL_LINE)
                        .setMaxHeaderSize(MAX_HEADER_BYTES)
                        .setMaxChunkSize(MAX_CHUNK_BYTES)));
                    ch.pipeline().addLast("body", new HttpBodyAggregator(maxBodyBytes));
                    ch.pipeline().addLast("api", new HttpApiHandler(api));
                }
            });
        final Channel bound = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        return new HttpFrontend(bound);
    }

    /** @return the bound port. */
    public int port()
    {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Stops accepting connections (the event loops are shut down by their owner). */
    @Override
    public void close()
    {
        channel.close().syncUninterruptibly();
    }
}
