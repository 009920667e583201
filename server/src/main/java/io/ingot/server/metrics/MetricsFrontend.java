package io.ingot.server.metrics;

import io.ingot.metrics.CustomMetrics;
import io.ingot.api.InferenceCore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.ingot.server.net.ConnectionLimiter;
import io.ingot.server.net.GuardedServerSocketChannel;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The Prometheus metrics listener (Triton's port 8002): {@code GET /metrics} answers the registry's metrics in the
 * text format, then the families the models defined for themselves (Triton's custom metrics); every other path is
 * 404.
 */
public final class MetricsFrontend implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(MetricsFrontend.class.getName());
    private static final int MAX_REQUEST_BYTES = 65536;
    private static final int MAX_CONNECTIONS = 256;
    private static final int IDLE_SECONDS = 120;

    private final Channel channel;

    private MetricsFrontend(final Channel channel)
    {
        this.channel = channel;
    }

    /**
     * @param core the core whose statistics feed Triton's metrics
     * @return a registry holding Triton's per-model metrics
     */
    public static PrometheusRegistry registryFor(final InferenceCore core)
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new TritonMetricsCollector(core));
        return registry;
    }

    /**
     * Binds the listener.
     *
     * @param registry what to expose
     * @param host     address to bind
     * @param port     port, 0 for an ephemeral one
     * @param boss     accepting event loop
     * @param workers  connection event loops
     * @return the bound listener
     * @throws InterruptedException when interrupted while binding
     */
    public static MetricsFrontend bind(final PrometheusRegistry registry, final String host, final int port,
        final EventLoopGroup boss, final EventLoopGroup workers) throws InterruptedException
    {
        return bind(registry, null, host, port, boss, workers);
    }

    /**
     * Binds the listener, which writes the models' own metric families after the registry's.
     *
     * @param registry what to expose
     * @param custom   the families the core's models defined ({@link InferenceCore#customMetrics()}), or
     *                 {@code null}
     * @param host     address to bind
     * @param port     port, 0 for an ephemeral one
     * @param boss     accepting event loop
     * @param workers  connection event loops
     * @return the bound listener
     * @throws InterruptedException when interrupted while binding
     */
    public static MetricsFrontend bind(final PrometheusRegistry registry, final CustomMetrics custom,
        final String host, final int port, final EventLoopGroup boss, final EventLoopGroup workers)
        throws InterruptedException
    {
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(boss, workers)
            .channelFactory(GuardedServerSocketChannel.factory("metrics", new ConnectionLimiter(MAX_CONNECTIONS)))
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    // A scraper that sends nothing for a while is closed: nobody can hold the listener's
                    // connections for ever.
                    ch.pipeline().addLast(new IdleStateHandler(0, 0, IDLE_SECONDS), new IdleCloser(),
                        new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES),
                        new ScrapeHandler(registry, custom));
                }
            });
        return new MetricsFrontend(bootstrap.bind(new InetSocketAddress(host, port)).sync().channel());
    }

    /** @return the bound port. */
    public int port()
    {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Stops accepting connections. */
    @Override
    public void close()
    {
        channel.close().syncUninterruptibly();
    }

    /** Closes a connection the {@link IdleStateHandler} found idle. */
    private static final class IdleCloser extends ChannelInboundHandlerAdapter
    {
        @Override
        public void userEventTriggered(final ChannelHandlerContext ctx, final Object event)
        {
            if (event instanceof IdleStateEvent)
            {
                ctx.close();
                return;
            }
            ctx.fireUserEventTriggered(event);
        }
    }

    /** Answers scrapes. Scrapes are rare and cheap, so they are rendered on the event loop. */
    private static final class ScrapeHandler extends SimpleChannelInboundHandler<FullHttpRequest>
    {
        private final PrometheusRegistry registry;
        private final CustomMetrics custom;

        ScrapeHandler(final PrometheusRegistry registry, final CustomMetrics custom)
        {
            this.registry = registry;
            this.custom = custom;
        }

        @Override
        protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
        {
            String path = request.uri();
            final int query = path.indexOf('?');
            if (query >= 0)
            {
                path = path.substring(0, query);
            }
            final FullHttpResponse response;
            if (!path.equals("/metrics") && !path.equals("/metrics/"))
            {
                response = text(ctx, HttpResponseStatus.NOT_FOUND, "Not Found\n");
            }
            else if (!request.method().equals(HttpMethod.GET))
            {
                response = text(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed\n");
            }
            else
            {
                String body;
                HttpResponseStatus status = HttpResponseStatus.OK;
                try
                {
                    final StringBuilder text = new StringBuilder(PrometheusTextWriter.write(registry.scrape()));
                    CustomMetricsText.write(custom, text);
                    body = text.toString();
                }
                catch (final RuntimeException failure)
                {
                    LOG.log(System.Logger.Level.WARNING, "metrics scrape failed", failure);
                    status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
                    body = "metrics scrape failed: " + failure + "\n";
                }
                response = text(ctx, status, body);
            }
            final boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            final var written = ctx.writeAndFlush(response);
            if (!keepAlive)
            {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }

        private static FullHttpResponse text(final ChannelHandlerContext ctx, final HttpResponseStatus status,
            final String text)
        {
            final ByteBuf body = ctx.alloc().buffer(text.length() + 16);
            body.writeCharSequence(text, StandardCharsets.UTF_8);
            final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, PrometheusTextWriter.CONTENT_TYPE);
            HttpUtil.setContentLength(response, body.readableBytes());
            return response;
        }
    }
}
