package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseStreamListener;
import io.ingot.server.json.GenerateJson;
import io.ingot.server.json.JsonOutput;
import io.ingot.server.json.MetadataJson;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.InferCall;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;

/**
 * One request of Triton's generate extension in flight, answered as Triton's HTTP frontend answers it
 * ({@code GenerateRequestClass}):
 * <ul>
 *   <li>{@code /generate_stream}: a {@code text/event-stream; charset=utf-8} response whose status is that of the
 *       first response (so a later error arrives under 200, as Triton's documentation warns), one
 *       {@code data: <json>} event per response of the model (each successful response a generate response object,
 *       each failed one {@code {"error":…}}), ended after the model's final response;</li>
 *   <li>{@code /generate}: exactly one JSON object. A model that answers with any other number of responses (a
 *       decoupled model) gets Triton's "generate expects model to produce exactly 1 response, use generate stream for
 *       model that generates various number of responses"; Triton sends it under the first response's status (200),
 *       Ingot under 500, the status of that INTERNAL error, as the extension's documentation asks of errors.</li>
 * </ul>
 * Each response is converted to JSON on the Ingot thread that delivers it and closed there; the bytes go to the
 * connection's event loop, which writes them in delivery order.
 *
 * <p>Threads: {@link #onResponse} on Ingot threads, one at a time per request; {@link #run} on the event loop.
 */
final class HttpGenerateExchange implements ResponseStreamListener, Runnable
{
    private static final System.Logger LOG = System.getLogger(HttpGenerateExchange.class.getName());

    /** Triton's text when {@code /generate} gets other than one response. */
    static final String NOT_ONE_RESPONSE = "generate expects model to produce exactly 1 response, use generate "
        + "stream for model that generates various number of responses";

    private static final String EVENT_STREAM = "text/event-stream; charset=utf-8";
    private static final byte[] EVENT_START = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * One converted response, or the end of the request's responses.
     *
     * @param bytes  the JSON (as an SSE event when streaming), or {@code null} for the end
     * @param status the HTTP status the response maps to
     */
    private record Part(ByteBuf bytes, HttpResponseStatus status)
    {
    }

    private static final Part END = new Part(null, HttpResponseStatus.OK);

    private final HttpApiHandler handler;
    private final ChannelHandlerContext ctx;
    private final InferCall call;
    private final boolean streaming;
    private final boolean keepAlive;
    private final ConcurrentLinkedQueue<Part> delivered = new ConcurrentLinkedQueue<>();
    /** Event loop only: the parts of {@code /generate}, kept until the end. */
    private final List<Part> collected = new ArrayList<>(1);
    /** Event loop only: whether the streamed response's head was written, and whether the connection stays open. */
    private boolean started;
    private boolean staysOpen;

    HttpGenerateExchange(final HttpApiHandler handler, final ChannelHandlerContext ctx, final InferCall call,
        final boolean streaming, final boolean keepAlive)
    {
        this.handler = handler;
        this.ctx = ctx;
        this.call = call;
        this.streaming = streaming;
        this.keepAlive = keepAlive;
    }

    @Override
    public void onResponse(final InferenceResponse response, final boolean last)
    {
        if (response != null)
        {
            try
            {
                delivered.add(convert(response));
            }
            finally
            {
                response.close();
            }
        }
        if (last)
        {
            call.release();
            delivered.add(END);
        }
        try
        {
            ctx.executor().execute(this);
        }
        catch (final RejectedExecutionException stopped)
        {
            // The event loop is gone (server closing): nothing can be written, only freed.
            Part part;
            while ((part = delivered.poll()) != null)
            {
                release(part);
            }
        }
    }

    private Part convert(final InferenceResponse response)
    {
        final ByteBuf bytes = ctx.alloc().buffer(256);
        if (streaming)
        {
            bytes.writeBytes(EVENT_START);
        }
        final int start = bytes.writerIndex();
        HttpResponseStatus status = HttpResponseStatus.OK;
        try
        {
            if (!response.isOk())
            {
                throw response.error();
            }
            GenerateJson.response(new JsonOutput(bytes), response);
        }
        catch (final InferenceException failure)
        {
            bytes.writerIndex(start);
            MetadataJson.error(new JsonOutput(bytes), ClientText.message(failure.getMessage()));
            status = HttpResponseStatus.valueOf(failure.code().httpStatus());
        }
        catch (final RuntimeException bug)
        {
            LOG.log(System.Logger.Level.ERROR, "failed to encode a generate response of model '"
                + call.request().modelName() + "'", bug);
            bytes.writerIndex(start);
            MetadataJson.error(new JsonOutput(bytes), ClientText.message("internal error while encoding the response "
                + "of model '" + call.request().modelName() + "': " + bug));
            status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
        }
        if (streaming)
        {
            bytes.writeBytes(EVENT_END);
        }
        return new Part(bytes, status);
    }

    /** Writes what was delivered, in order. Event loop only. */
    @Override
    public void run()
    {
        Part part;
        while ((part = delivered.poll()) != null)
        {
            if (streaming)
            {
                stream(part);
            }
            else if (part == END)
            {
                answerOnce();
            }
            else
            {
                collected.add(part);
            }
        }
    }

    private void stream(final Part part)
    {
        if (!started)
        {
            started = true;
            final HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, part.status());
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, EVENT_STREAM);
            staysOpen = handler.startStream(ctx, head, keepAlive);
        }
        if (part == END)
        {
            handler.endStream(ctx, staysOpen);
        }
        else if (ctx.channel().isActive())
        {
            ctx.writeAndFlush(new DefaultHttpContent(part.bytes()));
        }
        else
        {
            release(part);
        }
    }

    private void answerOnce()
    {
        if (collected.size() == 1)
        {
            final Part only = collected.getFirst();
            handler.send(ctx, HttpResponses.json(only.status(), only.bytes()), keepAlive);
            return;
        }
        collected.forEach(HttpGenerateExchange::release);
        handler.send(ctx, HttpResponses.error(ctx.alloc(), new InferenceException(ErrorCode.INTERNAL,
            NOT_ONE_RESPONSE)), keepAlive);
    }

    private static void release(final Part part)
    {
        if (part.bytes() != null)
        {
            part.bytes().release();
        }
    }
}
