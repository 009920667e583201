package io.ingot.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of one HTTP connection, which stop clients that hold a connection without finishing a request
 * (slow loris, slow body) or without sending one:
 * <ul>
 *   <li><b>idle</b>: between requests, the next one must start within {@link HttpLimits#idleTimeoutMillis()}, or the
 *       connection is closed;</li>
 *   <li><b>headers</b>: once its first byte arrived, a request's line and headers must be complete within
 *       {@link HttpLimits#headerTimeoutMillis()} (a total, not reset by more bytes);</li>
 *   <li><b>body</b>: once its headers are in, the body must be complete within
 *       {@link HttpLimits#bodyTimeoutMillis()} plus one second per {@link HttpLimits#minBodyBytesPerSecond()} bytes
 *       received, so that a large body on a slow link goes through and a trickle does not.</li>
 * </ul>
 * While the server works on a request and writes its response ({@link #serving()} until {@link #served()}),
 * nothing is timed here (the core's queue policies and timeouts apply), and a pipelined request whose bytes wait
 * unread meanwhile gets its allowance afresh afterwards. A request cut off in its headers or body is answered 408 with
 * the reason, and the connection is closed.
 *
 * <p>Two handlers share one timer: {@link #bytesHandler()} before the HTTP codec sees the first raw byte of a
 * request, {@link #messageHandler()} after it sees the decoded headers and body. A periodic check on the
 * connection's event loop compares the deadline with the clock: nothing is allocated per request. Event loop only.
 */
final class HttpConnectionTimer
{
    private static final int IDLE = 0;
    private static final int HEADERS = 1;
    private static final int BODY = 2;
    private static final int COMPLETE = 3;

    private final HttpLimits limits;
    private final long tickNanos;
    private int state = IDLE;
    private boolean serving;
    private long deadline;
    private long bodyStart;
    private long bodyBytes;
    private ScheduledFuture<?> check;
    private ChannelHandlerContext context;

    /**
     * @param limits the deadlines
     */
    HttpConnectionTimer(final HttpLimits limits)
    {
        this.limits = limits;
        final long shortest = Math.min(limits.idleTimeoutMillis(), Math.min(limits.headerTimeoutMillis(),
            limits.bodyTimeoutMillis()));
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(Math.clamp(shortest / 4, 10, 1000));
    }

    /** @return the handler to place before the HTTP codec */
    ChannelInboundHandlerAdapter bytesHandler()
    {
        return new ChannelInboundHandlerAdapter()
        {
            @Override
            public void channelActive(final ChannelHandlerContext ctx)
            {
                start(ctx);
                ctx.fireChannelActive();
            }

            @Override
            public void channelRead(final ChannelHandlerContext ctx, final Object message)
            {
                if ((state == IDLE || state == COMPLETE) && message instanceof ByteBuf bytes && bytes.isReadable())
                {
                    state = HEADERS;
                    deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.headerTimeoutMillis());
                }
                ctx.fireChannelRead(message);
            }

            @Override
            public void channelInactive(final ChannelHandlerContext ctx)
            {
                stop();
                ctx.fireChannelInactive();
            }
        };
    }

    /** @return the handler to place after the HTTP codec */
    ChannelInboundHandlerAdapter messageHandler()
    {
        return new ChannelInboundHandlerAdapter()
        {
            @Override
            public void channelRead(final ChannelHandlerContext ctx, final Object message)
            {
                if (message instanceof HttpRequest)
                {
                    startBody();
                }
                if (message instanceof HttpContent content && state == BODY)
                {
                    bodyBytes += content.content().readableBytes();
                    deadline = bodyStart + TimeUnit.MILLISECONDS.toNanos(limits.bodyTimeoutMillis())
                        + bodyBytes * 1_000_000_000L / limits.minBodyBytesPerSecond();
                    if (content instanceof LastHttpContent)
                    {
                        state = COMPLETE;
                    }
                }
                ctx.fireChannelRead(message);
            }
        };
    }

    private void startBody()
    {
        state = BODY;
        bodyStart = System.nanoTime();
        bodyBytes = 0;
        deadline = bodyStart + TimeUnit.MILLISECONDS.toNanos(limits.bodyTimeoutMillis());
    }

    /** The server took a request and stops reading until it has answered: nothing is timed meanwhile. */
    void serving()
    {
        serving = true;
    }

    /**
     * The server answered every request it took and reads again: the next request may come, within the idle
     * timeout, or one that arrived in part meanwhile continues with its allowance afresh.
     */
    void served()
    {
        serving = false;
        final long now = System.nanoTime();
        switch (state)
        {
            case HEADERS -> deadline = now + TimeUnit.MILLISECONDS.toNanos(limits.headerTimeoutMillis());
            case BODY -> startBody();
            default ->
            {
                state = IDLE;
                deadline = now + TimeUnit.MILLISECONDS.toNanos(limits.idleTimeoutMillis());
            }
        }
    }

    private void start(final ChannelHandlerContext ctx)
    {
        context = ctx;
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.idleTimeoutMillis());
        check = ctx.executor().scheduleAtFixedRate(this::check, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    private void stop()
    {
        if (check != null)
        {
            check.cancel(false);
            check = null;
        }
    }

    private void check()
    {
        if (serving || state == COMPLETE || System.nanoTime() - deadline < 0)
        {
            return;
        }
        stop();
        final ChannelHandlerContext ctx = context;
        if (state == IDLE)
        {
            ctx.close();
            return;
        }
        final String reason = state == HEADERS
            ? "the request line and headers did not arrive within " + limits.headerTimeoutMillis() + " ms"
            : "the request body arrived too slowly: " + bodyBytes + " bytes in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - bodyStart) + " ms (the body must be complete "
                + "within " + limits.bodyTimeoutMillis() + " ms plus 1 s per " + limits.minBodyBytesPerSecond()
                + " bytes)";
        state = COMPLETE;
        final FullHttpResponse response = HttpResponses.error(ctx.alloc(), HttpResponseStatus.REQUEST_TIMEOUT,
            reason);
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        HttpUtil.setContentLength(response, response.content().readableBytes());
        // From the channel, not this handler's context: the response must pass the HTTP encoder after it.
        ctx.channel().writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
