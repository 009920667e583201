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
 * Collects a request's body into one contiguous buffer, so that binary tensors can be handed to the core as views of
 * the body without another copy; then passes on a {@link io.netty.handler.codec.http.FullHttpRequest} whose content
 * is counted in the server's {@link RequestBodyBudget} until it is released.
 *
 * <p>What a body may hold is Triton's rule ({@link HttpInputLimit}, {@code --http-max-input-size}): the JSON of a
 * request, a raw binary input, are bounded by it, and a body the rule refuses is answered 400 with Triton's text as
 * soon as its head or its bytes show it; binary tensor data after an infer request's JSON part is not, so a 1 GiB
 * tensor passes with the default 64 MiB. Every body is bounded by the memory all bodies share (503 beyond it,
 * Triton's server has no such bound) and by what one buffer addresses, {@link #MAX_BODY_BYTES}.
 *
 * <p>Memory follows the bytes that arrive, never what {@code Content-Length} declares: a client that declares 1 GiB
 * and sends nothing holds nothing. A body up to {@link #LARGE_BODY_BYTES} goes into a pooled buffer that grows as
 * bytes arrive (the declared length caps the growth, so a body that arrives in full is copied at most once more on
 * its way in). A larger body, or one of unknown length that outgrows that, goes into anonymous memory mapped once for
 * its declared size (or for {@link #MAX_BODY_BYTES} when it has none) that the kernel commits page by page as the
 * bytes are written ({@link MappedBodyBuffer}): it is held once, never copied to grow, and reserved in the budget in
 * steps as it arrives. A refused body's remaining bytes are read and dropped before the connection closes, so a
 * client still sending sees the answer. Malformed HTTP is answered 400. {@code Expect: 100-continue} is honoured; an
 * empty {@code Expect} header (which the C++ client sends) is ignored. One instance per connection, on its event
 * loop.
 */
final class HttpBodyAggregator extends ChannelInboundHandlerAdapter
{
    /** The largest body read: what one buffer addresses. Larger tensors go through shared memory. */
    static final int MAX_BODY_BYTES = Integer.MAX_VALUE - 8;

    /**
     * Bodies larger than this are read into memory mapped for their whole size rather than a growing buffer: below
     * it Netty's pool, whose memory stays resident, is about twice as fast; above it a growing buffer is a fresh
     * allocation copied at every doubling, and mapping is about twice as fast
     * (benchmarks/results/http-body-2026-12-04).
     */
    static final int LARGE_BODY_BYTES = 16 << 20;

    private static final int FIRST_CAPACITY = 64 * 1024;

    /** A mapped body reserves its budget in steps of this many bytes as they arrive. */
    private static final int RESERVE_STEP = 1 << 20;

    private final HttpInputLimit limit;
    private final RequestBodyBudget budget;
    private HttpRequest head;
    private long declaredLength;
    private ByteBuf body;
    private boolean mapped;
    private long reserved;
    private boolean discarding;
    /** Whether Triton's rule was applied to this body already, or need not be (a body within the limit). */
    private boolean ruleApplied;

    /**
     * @param limit  Triton's input-size rule
     * @param budget the memory all bodies of the server may hold
     */
    HttpBodyAggregator(final HttpInputLimit limit, final RequestBodyBudget budget)
    {
        this.limit = limit;
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
        if (length > MAX_BODY_BYTES)
        {
            reject(ctx, HttpResponseStatus.BAD_REQUEST, tooLargeToRead(length), false);
            return;
        }
        ruleApplied = length >= 0 && length <= limit.bytes();
        if (length > limit.bytes())
        {
            final InferenceException refusal = limit.refusal(request, length);
            if (refusal != null)
            {
                reject(ctx, HttpResponseStatus.BAD_REQUEST, refusal.getMessage(), false);
                return;
            }
            ruleApplied = true;
        }
        if (HttpUtil.is100ContinueExpected(request))
        {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
        request.headers().remove(HttpHeaderNames.EXPECT);
        head = request;
        declaredLength = length;
    }

    private static String tooLargeToRead(final long length)
    {
        return "request body of " + length + " bytes exceeds the largest body this server reads, " + MAX_BODY_BYTES
            + " bytes; send tensors that large through shared memory";
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
            final long received = (body == null ? 0 : body.writerIndex()) + (long) chunk.readableBytes();
            if (received > MAX_BODY_BYTES)
            {
                reject(ctx, HttpResponseStatus.BAD_REQUEST, tooLargeToRead(received),
                    content instanceof LastHttpContent);
                return;
            }
            if (!ruleApplied && received > limit.bytes())
            {
                // A body of unknown length: the rule applies when it outgrows the limit, naming its size so far.
                ruleApplied = true;
                final InferenceException refusal = limit.refusal(head, received);
                if (refusal != null)
                {
                    reject(ctx, HttpResponseStatus.BAD_REQUEST, refusal.getMessage(),
                        content instanceof LastHttpContent);
                    return;
                }
            }
            if (chunk.isReadable())
            {
                if (!makeRoom(ctx, (int) received))
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
                mapped = false;
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
     * Makes the body able to hold {@code needed} bytes, reserving them in the budget.
     *
     * @return false when they cannot be held (the request was answered 503)
     */
    private boolean makeRoom(final ChannelHandlerContext ctx, final int needed)
    {
        if (body != null && needed <= body.capacity())
        {
            return !mapped || reserveArrived(ctx, needed);
        }
        final boolean large = declaredLength > LARGE_BODY_BYTES || declaredLength < 0 && needed > LARGE_BODY_BYTES;
        if (large && MappedBodyBuffer.isAvailable())
        {
            return map(ctx, needed);
        }
        final int cap = MappedBodyBuffer.isAvailable() ? LARGE_BODY_BYTES : MAX_BODY_BYTES;
        final int capacity = body == null ? 0 : body.capacity();
        long target = Math.max(needed, Math.max(FIRST_CAPACITY, 2L * capacity));
        if (declaredLength >= needed)
        {
            target = Math.min(target, declaredLength);
        }
        target = Math.min(target, cap);
        if (!reserve(ctx, target - reserved))
        {
            return false;
        }
        try
        {
            if (body == null)
            {
                body = ctx.alloc().directBuffer((int) target, cap);
            }
            else
            {
                body.capacity((int) target);
            }
        }
        catch (final OutOfMemoryError directMemorySpent)
        {
            // The pooled buffers also count against the JVM's direct memory, which may be less than the budget.
            reject(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "Server is out of memory for request bodies: "
                + directMemorySpent.getMessage() + "; retry later", false);
            return false;
        }
        return true;
    }

    /**
     * Moves the body into memory mapped for its declared size (or the most a body may be), copying what a pooled
     * buffer held of it so far (at most {@link #LARGE_BODY_BYTES}, once).
     */
    private boolean map(final ChannelHandlerContext ctx, final int needed)
    {
        final ByteBuf target;
        try
        {
            target = MappedBodyBuffer.allocate(declaredLength >= 0 ? (int) declaredLength : MAX_BODY_BYTES);
        }
        catch (final RuntimeException cannotMap)
        {
            reject(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "Server cannot reserve memory for a request body of "
                + (declaredLength >= 0 ? declaredLength + " bytes" : "unknown length") + ": " + cannotMap.getMessage(),
                false);
            return false;
        }
        final ByteBuf previous = body;
        final long previousReserved = reserved;
        body = target;
        mapped = true;
        reserved = 0;
        if (!reserveArrived(ctx, needed))
        {
            // reject() released the mapping; the pooled buffer and its reservation go too.
            if (previous != null)
            {
                previous.release();
            }
            budget.release(previousReserved);
            return false;
        }
        if (previous != null)
        {
            target.writeBytes(previous);
            previous.release();
            budget.release(previousReserved);
        }
        return true;
    }

    /** Reserves budget for a mapped body's first {@code needed} bytes, in {@link #RESERVE_STEP}s. */
    private boolean reserveArrived(final ChannelHandlerContext ctx, final int needed)
    {
        if (needed <= reserved)
        {
            return true;
        }
        final long step = Math.min(body.capacity(), (needed + (long) RESERVE_STEP - 1) / RESERVE_STEP * RESERVE_STEP);
        return reserve(ctx, step - reserved);
    }

    /** @return false when the budget cannot hold {@code growth} more bytes (the request was answered 503) */
    private boolean reserve(final ChannelHandlerContext ctx, final long growth)
    {
        if (growth <= 0)
        {
            return true;
        }
        if (!budget.tryReserve(growth))
        {
            reject(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, budget.exhausted(growth).getMessage(), false);
            return false;
        }
        reserved += growth;
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
        mapped = false;
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
