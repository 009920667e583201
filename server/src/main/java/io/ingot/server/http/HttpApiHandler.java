package io.ingot.server.http;

import io.ingot.api.DecoupledModelException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelMetadata;
import io.ingot.api.ResponseStreamListener;
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
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * One connection's KServe v2 handler: routes each request, answers control endpoints, and runs inference
 * asynchronously through the core's callback API.
 *
 * <p>Requests on a connection are answered strictly in order, one at a time: pipelined requests wait in a queue, and
 * while one waits, reading stops. While a request is in progress and none waits, the connection is still read, so
 * that a client that goes away is noticed at once: its inference, if still queued, is cancelled (answered CANCELLED
 * inside the core, never executed, counted as a CANCELED failure). A client that half-closes its side after sending
 * (shutdown for writing) is taken as gone too. Everything here runs on the connection's event loop; the core's
 * callback only hands the response back to that loop, and blocking calls go to {@link HttpApi#blockingExecutor()}.
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
    private final HttpGenerateDecoder generateDecoder;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>(2);
    private boolean busy;
    /** The inference in progress, cancelled if the client goes away before it is answered; {@code null} if none. */
    private InferenceRequest cancellable;

    /**
     * @param api   the shared state
     * @param timer the connection's deadlines, paused while a request is served
     */
    HttpApiHandler(final HttpApi api, final HttpConnectionTimer timer)
    {
        this.api = api;
        this.timer = timer;
        this.generateDecoder = new HttpGenerateDecoder(api.decoder(), api.inputLimit().bytes());
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
            ctx.channel().config().setAutoRead(false);
            return;
        }
        process(ctx, request);
    }

    private void process(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        busy = true;
        timer.serving();
        // Read on only while nothing waits: enough to see the client go away, never an unbounded queue.
        ctx.channel().config().setAutoRead(waiting.isEmpty());
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
        if (route instanceof HttpRoute.Generate generate)
        {
            generate(ctx, request, generate, keepAlive);
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
            cancellable = call.request();
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

    /**
     * Triton's generate extension: the body is mapped to the model's inputs and parameters by its metadata, and the
     * responses are written as {@link HttpGenerateExchange} says.
     */
    private void generate(final ChannelHandlerContext ctx, final FullHttpRequest request,
        final HttpRoute.Generate route, final boolean keepAlive)
    {
        final InferCall call = new InferCall(ctx.alloc(), route.model(), route.version());
        try
        {
            // Triton's HandleGenerate: the model's metadata first (an unknown model fails here), then the coding.
            final ModelMetadata metadata = api.core().modelMetadata(route.model(), route.version());
            final String coding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            if (coding != null && !coding.isBlank() && !coding.strip().equalsIgnoreCase("identity"))
            {
                throw new InferenceException(ErrorCode.INVALID_ARG,
                    "Unsupported content-encoding, only 'identity' is supported.");
            }
            generateDecoder.decode(call, metadata, request.content());
            cancellable = call.request();
            api.core().submit(call.request(),
                (ResponseStreamListener) new HttpGenerateExchange(this, ctx, call, route.streaming(), keepAlive));
        }
        catch (final InferenceException failure)
        {
            call.release();
            send(ctx, HttpResponses.error(ctx.alloc(), failure), keepAlive);
        }
        catch (final RuntimeException bug)
        {
            call.release();
            LOG.log(System.Logger.Level.ERROR, "generate request for model '" + route.model() + "' failed", bug);
            send(ctx, HttpResponses.error(ctx.alloc(), new InferenceException(ErrorCode.INTERNAL, "internal error "
                + "while submitting the request for model '" + route.model() + "': " + bug)), keepAlive);
        }
        finally
        {
            // The inputs are copies: the body is not needed once they are made.
            request.release();
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
        cancellable = null;
        HttpUtil.setContentLength(response, response.content().readableBytes());
        final boolean staysOpen = keepAlive && !api.drain().isDraining();
        if (!staysOpen)
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        if (!ctx.channel().isActive())
        {
            response.release();
            answered(ctx, false);
            return;
        }
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) written ->
            answered(ctx, staysOpen && written.isSuccess()));
    }

    /**
     * Starts a streamed (chunked) response: writes its head; the caller writes the chunks, then calls
     * {@link #endStream}. Event loop only.
     *
     * @param ctx       the connection
     * @param head      the status line and headers
     * @param keepAlive whether the request asked to keep the connection
     * @return whether the connection stays open after the response, for {@link #endStream}
     */
    boolean startStream(final ChannelHandlerContext ctx, final HttpResponse head, final boolean keepAlive)
    {
        final boolean staysOpen = keepAlive && !api.drain().isDraining();
        if (!staysOpen)
        {
            head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        HttpUtil.setTransferEncodingChunked(head, true);
        if (ctx.channel().isActive())
        {
            ctx.writeAndFlush(head);
        }
        return staysOpen;
    }

    /**
     * Ends a streamed response, then moves on to the next request of the connection. Event loop only.
     *
     * @param ctx       the connection
     * @param staysOpen what {@link #startStream} returned
     */
    void endStream(final ChannelHandlerContext ctx, final boolean staysOpen)
    {
        cancellable = null;
        if (!ctx.channel().isActive())
        {
            answered(ctx, false);
            return;
        }
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) written ->
            answered(ctx, staysOpen && written.isSuccess()));
    }

    /** The current request's answer was written (or dropped): the next request, or the connection closes. */
    private void answered(final ChannelHandlerContext ctx, final boolean keepReading)
    {
        api.drain().answered();
        if (!keepReading)
        {
            drainWaiting();
            ctx.close();
            return;
        }
        next(ctx);
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
        final InferenceRequest abandoned = cancellable;
        cancellable = null;
        if (abandoned != null)
        {
            // Nobody will read the answer: a request still queued is dropped unexecuted (answered CANCELLED in the
            // core, whose answer is then only freed); one already executing completes.
            abandoned.cancel();
        }
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
