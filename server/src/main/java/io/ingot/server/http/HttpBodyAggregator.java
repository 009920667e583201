package io.ingot.server.http;

import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
 * Collects a request's body into one contiguous direct buffer, so that binary tensors can be handed to the core as
 * views of the body without another copy; then passes on a {@link io.netty.handler.codec.http.FullHttpRequest}
 * whose content is counted in the server's {@link RequestBodyBudget} until it is released.
 *
 * <p>The buffer grows with the bytes that arrive, never from what {@code Content-Length} declares: a client that
 * declares 64 MiB and sends nothing holds nothing. (The declared length only caps the growth, so that a body that
 * does arrive in full is copied at most once more on its way in.) A body over the limit is answered 400 with a
 * message giving both sizes; a body the budget cannot hold is answered 503; in both cases the rest of the body is
 * read and dropped and the connection is closed. Malformed HTTP is answered 400. {@code Expect: 100-continue} is
 * honoured; an empty {@code Expect} header (which the C++ client sends) is ignored.
 */
final class HttpBodyAggregator extends ChannelInboundHandlerAdapter
{
    private static final int FIRST_CAPACITY = 64 * 1024;

    private final int maxBodyBytes;
    private final RequestBodyBudget budget;
    private HttpRequest head;
    private long declaredLength;
    private ByteBuf body;
    private long reserved;
    private boolean discarding;

    /**
     * @param maxBodyBytes the largest body accepted
     * @param budget       the memory all bodies of the server may hold
     */
    HttpBodyAggregator(final int maxBodyBytes, final RequestBodyBudget budget)
    {
        this.maxBodyBytes = maxBodyBytes;
        this.budget = budget;
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
            reject(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request: " + request.decoderResult().cause(),
                true);
            return;
        }
        final long length;
        try
        {
            length = HttpUtil.getContentLength(request, -1L);
        }
        catch (final NumberFormatException badLength)
        {
            reject(ctx, HttpResponseStatus.BAD_REQUEST, "invalid Content-Length header '"
                + request.headers().get(HttpHeaderNames.CONTENT_LENGTH) + "'", true);
            return;
        }
        if (length > maxBodyBytes)
        {
            reject(ctx, HttpResponseStatus.BAD_REQUEST, "request body of " + length + " bytes exceeds this server's "
                + "limit of " + maxBodyBytes + " bytes", false);
            return;
        }
        if (HttpUtil.is100ContinueExpected(request))
        {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
        request.headers().remove(HttpHeaderNames.EXPECT);
        head = request;
        declaredLength = length;
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
                reject(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request body: "
                    + content.decoderResult().cause(), true);
                return;
            }
            final ByteBuf chunk = content.content();
            final int received = body == null ? 0 : body.writerIndex();
            if (chunk.readableBytes() > maxBodyBytes - received)
            {
                reject(ctx, HttpResponseStatus.BAD_REQUEST, "request body exceeds this server's limit of "
                    + maxBodyBytes + " bytes", content instanceof LastHttpContent);
                return;
            }
            if (chunk.isReadable())
            {
                if (!makeRoom(ctx, received + chunk.readableBytes()))
                {
                    return;
                }
                body.writeBytes(chunk);
            }
            if (content instanceof LastHttpContent last)
            {
                final ByteBuf whole = body == null ? Unpooled.EMPTY_BUFFER : new BudgetedByteBuf(body, budget,
                    reserved);
                final DefaultFullHttpRequest full = new DefaultFullHttpRequest(head.protocolVersion(), head.method(),
                    head.uri(), whole, head.headers(), last.trailingHeaders());
                head = null;
                body = null;
                reserved = 0;
                ctx.fireChannelRead(full);
            }
        }
        finally
        {
            ReferenceCountUtil.release(content);
        }
    }

    /**
     * Grows the body to hold {@code needed} bytes, reserving the growth in the budget.
     *
     * @return false when the budget cannot hold it (the request was answered 503)
     */
    private boolean makeRoom(final ChannelHandlerContext ctx, final int needed)
    {
        final int capacity = body == null ? 0 : body.capacity();
        if (body != null && needed <= capacity)
        {
            return true;
        }
        long target = Math.max(needed, Math.max(FIRST_CAPACITY, 2L * capacity));
        if (declaredLength >= needed)
        {
            target = Math.min(target, declaredLength);
        }
        target = Math.min(target, maxBodyBytes);
        final long growth = target - reserved;
        if (!budget.tryReserve(growth))
        {
            final InferenceException exhausted = budget.exhausted(growth);
            reject(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, exhausted.getMessage(), false);
            return false;
        }
        reserved += growth;
        if (body == null)
        {
            body = ctx.alloc().directBuffer((int) target, maxBodyBytes);
        }
        else
        {
            body.capacity((int) target);
        }
        return true;
    }

    /**
     * Answers and ends the connection: at once when the stream cannot be trusted any more, else after the rest of
     * the body was read and dropped, so that a client still sending sees the answer rather than a reset.
     */
    private void reject(final ChannelHandlerContext ctx, final HttpResponseStatus status, final String message,
        final boolean closeNow)
    {
        releaseBody();
        head = null;
        discarding = true;
        final FullHttpResponse response = HttpResponses.error(ctx.alloc(), status, message);
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
        if (reserved > 0)
        {
            budget.release(reserved);
            reserved = 0;
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
