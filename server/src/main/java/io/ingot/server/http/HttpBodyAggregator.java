package io.ingot.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Collects a request's body into one contiguous direct buffer, sized from {@code Content-Length} up front, so that
 * binary tensors can be handed to the core as views of the body without another copy; then passes on a
 * {@link io.netty.handler.codec.http.FullHttpRequest}.
 *
 * <p>A body over the limit is answered 400 with a message giving both sizes, and the connection is closed. Malformed
 * HTTP is answered 400. {@code Expect: 100-continue} is honoured; an empty {@code Expect} header (which the C++
 * client sends) is ignored.
 */
final class HttpBodyAggregator extends ChannelInboundHandlerAdapter
{
    private static final int CHUNKED_INITIAL_CAPACITY = 8192;

    private final int maxBodyBytes;
    private HttpRequest head;
    private ByteBuf body;
    private boolean discarding;

    /**
     * @param maxBodyBytes the largest body accepted
     */
    HttpBodyAggregator(final int maxBodyBytes)
    {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object message)
    {
        if (message instanceof HttpRequest request)
        {
            startRequest(ctx, request);
        }
        if (message instanceof HttpContent content)
        {
            appendContent(ctx, content);
        }
        else if (!(message instanceof HttpRequest))
        {
            ctx.fireChannelRead(message);
        }
    }

    private void startRequest(final ChannelHandlerContext ctx, final HttpRequest request)
    {
        releaseBody();
        head = null;
        if (discarding)
        {
            return;
        }
        if (request.decoderResult().isFailure())
        {
            reject(ctx, "malformed HTTP request: " + request.decoderResult().cause(), true);
            return;
        }
        final long length;
        try
        {
            length = HttpUtil.getContentLength(request, -1L);
        }
        catch (final NumberFormatException badLength)
        {
            reject(ctx, "invalid Content-Length header '" + request.headers().get(HttpHeaderNames.CONTENT_LENGTH)
                + "'", true);
            return;
        }
        if (length > maxBodyBytes)
        {
            reject(ctx, "request body of " + length + " bytes exceeds this server's limit of " + maxBodyBytes
                + " bytes", false);
            return;
        }
        if (HttpUtil.is100ContinueExpected(request))
        {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
        request.headers().remove(HttpHeaderNames.EXPECT);
        head = request;
        final int capacity = length >= 0 ? (int) length : CHUNKED_INITIAL_CAPACITY;
        body = ctx.alloc().directBuffer(capacity, maxBodyBytes);
    }

    private void appendContent(final ChannelHandlerContext ctx, final HttpContent content)
    {
        try
        {
            if (discarding)
            {
                if (content instanceof LastHttpContent)
                {
                    ctx.close();
                }
                return;
            }
            if (head == null)
            {
                return;
            }
            if (content.decoderResult().isFailure())
            {
                reject(ctx, "malformed HTTP request body: " + content.decoderResult().cause(), true);
                return;
            }
            final ByteBuf chunk = content.content();
            if (chunk.readableBytes() > maxBodyBytes - body.writerIndex())
            {
                reject(ctx, "request body exceeds this server's limit of " + maxBodyBytes + " bytes",
                    content instanceof LastHttpContent);
                return;
            }
            body.writeBytes(chunk);
            if (content instanceof LastHttpContent last)
            {
                final DefaultFullHttpRequest full = new DefaultFullHttpRequest(head.protocolVersion(), head.method(),
                    head.uri(), body, head.headers(), last.trailingHeaders());
                head = null;
                body = null;
                ctx.fireChannelRead(full);
            }
        }
        finally
        {
            ReferenceCountUtil.release(content);
        }
    }

    /**
     * Answers 400 and ends the connection: at once when the stream cannot be trusted any more, else after the rest
     * of the body was read and dropped, so that a client still sending sees the answer rather than a reset.
     */
    private void reject(final ChannelHandlerContext ctx, final String message, final boolean closeNow)
    {
        releaseBody();
        head = null;
        discarding = true;
        final FullHttpResponse response = HttpResponses.error(ctx.alloc(), HttpResponseStatus.BAD_REQUEST, message);
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        HttpUtil.setContentLength(response, response.content().readableBytes());
        if (closeNow)
        {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
        else
        {
            ctx.writeAndFlush(response);
        }
    }

    private void releaseBody()
    {
        if (body != null)
        {
            body.release();
            body = null;
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        releaseBody();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        releaseBody();
    }
}
