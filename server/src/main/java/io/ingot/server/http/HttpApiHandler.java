package io.ingot.server.http;

import io.ingot.api.DecoupledModelException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.access.RestrictedApis;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.trace.ServerTrace;
import io.ingot.server.trace.TraceFrontend;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * One connection's KServe v2 handler: routes each request, answers control endpoints, and runs inference
 * asynchronously through the core's callback API.
 *
 * <p>Requests on a connection are answered strictly in order, one at a time: while one is in progress, reading stops
 * and pipelined requests wait in a queue. Everything here runs on the connection's event loop; the core's callback
 * only hands the response back to that loop, and blocking calls go to {@link HttpApi#blockingExecutor()}.
 *
 * <p>A request to an endpoint restricted with {@code --http-restricted-api} without the expected header is answered
 * 403 before anything else, as Triton answers it. Every received request is counted in {@link HttpApi#drain()}
 * until its response was written, so that a graceful stop can wait for all of them; while draining, responses
 * close their connections.
 */
final class HttpApiHandler extends ChannelInboundHandlerAdapter
{
    private static final System.Logger LOG = System.getLogger(HttpApiHandler.class.getName());

    private final HttpApi api;
    private final HttpConnectionTimer timer;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>(2);
    private boolean busy;

    /**
     * @param api   the shared state
     * @param timer the connection's deadlines, paused while a request is served
     */
    HttpApiHandler(final HttpApi api, final HttpConnectionTimer timer)
    {
        this.api = api;
        this.timer = timer;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object message)
    {
        if (!(message instanceof FullHttpRequest request))
        {
            ReferenceCountUtil.release(message);
            return;
        }
        api.drain().received();
        if (busy)
        {
            waiting.add(request);
            return;
        }
        process(ctx, request);
    }

    private void process(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        busy = true;
        timer.serving();
        ctx.channel().config().setAutoRead(false);
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        final HttpRoute route = HttpRouter.route(request.method(), request.uri());
        final RestrictedApis.Restriction restriction = route instanceof HttpRoute.NotFound ? null
            : api.restricted().of(HttpRouter.category(request.uri()));
        if (restriction != null && !restriction.allows(request.headers().get(restriction.header())))
        {
            request.release();
            send(ctx, HttpResponses.error(ctx.alloc(), HttpResponseStatus.FORBIDDEN, "This API is restricted, "
                + "expecting header '" + restriction.header() + "'"), keepAlive);
            return;
        }
        if (route instanceof HttpRoute.Infer infer)
        {
            infer(ctx, request, infer, keepAlive);
            return;
        }
        if (HttpControlEndpoints.blocks(route))
        {
            try
            {
                api.blockingExecutor().execute(() -> answerControl(ctx, request, route, keepAlive, true));
            }
            catch (final RejectedExecutionException stopping)
            {
                request.release();
                send(ctx, HttpResponses.error(ctx.alloc(), new InferenceException(ErrorCode.UNAVAILABLE,
                    "the server is shutting down")), false);
            }
            return;
        }
        answerControl(ctx, request, route, keepAlive, false);
    }

    private void answerControl(final ChannelHandlerContext ctx, final FullHttpRequest request, final HttpRoute route,
        final boolean keepAlive, final boolean offLoop)
    {
        FullHttpResponse response;
        try
        {
            response = api.control().handle(route, request.content(), ctx.alloc());
        }
        catch (final InferenceException failure)
        {
            response = HttpResponses.error(ctx.alloc(), failure);
        }
        catch (final RuntimeException bug)
        {
            LOG.log(System.Logger.Level.ERROR, "failed to answer " + request.method() + " " + request.uri(), bug);
            response = HttpResponses.error(ctx.alloc(), new InferenceException(ErrorCode.INTERNAL,
                "internal error while answering " + request.method() + " " + request.uri() + ": " + bug));
        }
        finally
        {
            request.release();
        }
        if (offLoop)
        {
            final FullHttpResponse answer = response;
            ctx.executor().execute(() -> send(ctx, answer, keepAlive));
        }
        else
        {
            send(ctx, response, keepAlive);
        }
    }

    private void infer(final ChannelHandlerContext ctx, final FullHttpRequest request, final HttpRoute.Infer route,
        final boolean keepAlive)
    {
        // Sampling is one volatile read while tracing is off; a sampled request carries its own small trace.
        final ServerTrace trace = api.tracer().sample(route.model(), TraceFrontend.HTTP);
        final long receivedNs = trace == null ? 0 : System.nanoTime();
        final String acceptEncoding = request.headers().get(HttpHeaderNames.ACCEPT_ENCODING);
        final String headerLength = request.headers().get(HttpInferDecoder.HEADER_LENGTH);
        final ByteBuf body;
        try
        {
            body = decodedBody(ctx, request);
        }
        catch (final InferenceException failure)
        {
            send(ctx, HttpResponses.error(ctx.alloc(), failure), keepAlive);
            return;
        }
        final InferCall call = new InferCall(ctx.alloc(), route.model(), route.version());
        final HttpInferExchange exchange = new HttpInferExchange(this, ctx, call, body, keepAlive,
            ContentCoding.negotiate(acceptEncoding));
        try
        {
            api.decoder().decode(call, headerLength, body);
            if (trace != null)
            {
                trace.received(receivedNs, System.nanoTime());
                call.request().trace(trace.core());
                exchange.trace(trace, api.tracer());
            }
            api.core().submit(call.request(), exchange);
        }
        catch (final DecoupledModelException decoupled)
        {
            // Triton's http_server.cc CheckTransactionPolicy: 501, the zero or many responses need gRPC streaming.
            exchange.fail(new InferenceException(ErrorCode.UNSUPPORTED,
                "HTTP end point doesn't support models with decoupled transaction policy"));
        }
        catch (final InferenceException failure)
        {
            exchange.fail(failure);
        }
        catch (final RuntimeException bug)
        {
            LOG.log(System.Logger.Level.ERROR, "inference request for model '" + route.model() + "' failed", bug);
            exchange.fail(new InferenceException(ErrorCode.INTERNAL, "internal error while submitting the request "
                + "for model '" + route.model() + "': " + bug));
        }
    }

    /** @return the request body, decompressed if needed, owned by the caller; the request is released. */
    private ByteBuf decodedBody(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        try
        {
            final ContentCoding coding = ContentCoding.ofContentEncoding(
                request.headers().get(HttpHeaderNames.CONTENT_ENCODING));
            if (coding == ContentCoding.IDENTITY)
            {
                return request.content().retain();
            }
            return coding.decode(request.content(), api.inputLimit(), api.budget(), ctx.alloc());
        }
        finally
        {
            request.release();
        }
    }

    /**
     * Writes a response, then moves on to the next request of the connection. Event loop only.
     *
     * @param ctx       the connection
     * @param response  the response (ownership passes)
     * @param keepAlive whether the connection stays open
     */
    void send(final ChannelHandlerContext ctx, final FullHttpResponse response, final boolean keepAlive)
    {
        HttpUtil.setContentLength(response, response.content().readableBytes());
        final boolean staysOpen = keepAlive && !api.drain().isDraining();
        if (!staysOpen)
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        if (!ctx.channel().isActive())
        {
            response.release();
            api.drain().answered();
            drainWaiting();
            return;
        }
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) written ->
        {
            api.drain().answered();
            if (!staysOpen || !written.isSuccess())
            {
                drainWaiting();
                ctx.close();
                return;
            }
            next(ctx);
        });
    }

    private void next(final ChannelHandlerContext ctx)
    {
        busy = false;
        final FullHttpRequest request = waiting.poll();
        if (request != null)
        {
            process(ctx, request);
        }
        else
        {
            timer.served();
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Drops the requests waiting behind the current one: their connection is gone, they cannot be answered. */
    private void drainWaiting()
    {
        FullHttpRequest request;
        while ((request = waiting.poll()) != null)
        {
            request.release();
            api.drain().answered();
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        drainWaiting();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        LOG.log(System.Logger.Level.DEBUG, "HTTP connection " + ctx.channel().remoteAddress() + " failed", cause);
        ctx.close();
    }
}
