package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseListener;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.trace.ServerTrace;
import io.ingot.server.trace.TraceManager;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.util.concurrent.RejectedExecutionException;

/**
 * One HTTP inference in flight: receives the core's response on an Ingot thread and hands it to the connection's
 * event loop, which encodes and writes it, then frees the request body, the call's buffers and the response.
 */
final class HttpInferExchange implements ResponseListener, Runnable
{
    private static final System.Logger LOG = System.getLogger(HttpInferExchange.class.getName());

    private final HttpApiHandler handler;
    private final ChannelHandlerContext ctx;
    private final InferCall call;
    private final ByteBuf body;
    private final boolean keepAlive;
    private final ContentCoding responseCoding;
    private InferenceResponse response;
    private InferenceException failure;
    private ServerTrace trace;
    private TraceManager tracer;

    HttpInferExchange(final HttpApiHandler handler, final ChannelHandlerContext ctx, final InferCall call,
        final ByteBuf body, final boolean keepAlive, final ContentCoding responseCoding)
    {
        this.handler = handler;
        this.ctx = ctx;
        this.call = call;
        this.body = body;
        this.keepAlive = keepAlive;
        this.responseCoding = responseCoding;
    }

    /**
     * Makes this a traced exchange: the send timestamps are taken and the trace is completed after the write.
     *
     * @param sampled the request's trace
     * @param manager where it goes when complete
     */
    void trace(final ServerTrace sampled, final TraceManager manager)
    {
        this.trace = sampled;
        this.tracer = manager;
    }

    /** Called by the core, once, on an Ingot thread: only hands over to the event loop. */
    @Override
    public void onResponse(final InferenceResponse delivered)
    {
        this.response = delivered;
        try
        {
            ctx.executor().execute(this);
        }
        catch (final RejectedExecutionException stopped)
        {
            // The event loop is gone (server closing): nothing can be written, only freed.
            delivered.close();
            release();
        }
    }

    /**
     * Answers with an error found before or instead of submission. Event loop only.
     *
     * @param error the error
     */
    void fail(final InferenceException error)
    {
        this.failure = error;
        run();
    }

    /** Encodes and writes the response, on the event loop. */
    @Override
    public void run()
    {
        if (trace != null)
        {
            trace.sendStarted(System.nanoTime());
            trace.answeredBy(call.request().id(), response != null ? response.modelVersion() : call.request()
                .modelVersion());
        }
        FullHttpResponse answer;
        try
        {
            answer = encode();
        }
        catch (final InferenceException error)
        {
            answer = HttpResponses.error(ctx.alloc(), error);
        }
        catch (final RuntimeException bug)
        {
            LOG.log(System.Logger.Level.ERROR, "failed to encode the response of model '"
                + call.request().modelName() + "'", bug);
            answer = HttpResponses.error(ctx.alloc(), new InferenceException(ErrorCode.INTERNAL,
                "internal error while encoding the response of model '" + call.request().modelName() + "': " + bug));
        }
        finally
        {
            if (response != null)
            {
                response.close();
            }
            release();
        }
        handler.send(ctx, answer, keepAlive);
        if (trace != null)
        {
            // On the event loop the write has reached the socket (or its outbound buffer) when send returns.
            trace.sendEnded(System.nanoTime());
            tracer.complete(trace);
        }
    }

    private FullHttpResponse encode()
    {
        if (failure != null)
        {
            throw failure;
        }
        if (!response.isOk())
        {
            throw response.error();
        }
        final HttpInferEncoder.Encoded encoded = HttpInferEncoder.encode(call, response, ctx.alloc());
        final ByteBuf content = responseCoding.encode(encoded.body(), ctx.alloc());
        final FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            content);
        if (encoded.binary())
        {
            answer.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
            answer.headers().set(HttpInferDecoder.HEADER_LENGTH, encoded.jsonLength());
        }
        else
        {
            answer.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        }
        if (responseCoding != ContentCoding.IDENTITY)
        {
            answer.headers().set(HttpHeaderNames.CONTENT_ENCODING, responseCoding.token());
        }
        return answer;
    }

    private void release()
    {
        call.release();
        body.release();
    }
}
