package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.json.JsonOutput;
import io.ingot.server.net.ClientText;
import io.ingot.server.json.MetadataJson;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/** Builders of the HTTP responses the KServe v2 endpoints send: JSON bodies, empty bodies, {@code {"error":..}}. */
public final class HttpResponses
{
    private HttpResponses()
    {
    }

    /**
     * @param status status
     * @param json   a JSON body (ownership passes to the response)
     * @return a response with {@code Content-Type: application/json}
     */
    public static FullHttpResponse json(final HttpResponseStatus status, final ByteBuf json)
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, json);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        return response;
    }

    /**
     * @param status status
     * @return a response with no body (Triton's health and ready answers)
     */
    public static FullHttpResponse empty(final HttpResponseStatus status)
    {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
    }

    /**
     * @param alloc   allocator
     * @param status  status
     * @param message error message, cut to {@link ClientText#MAX_MESSAGE_CHARS} characters
     * @return {@code {"error":"<message>"}} with the status
     */
    public static FullHttpResponse error(final ByteBufAllocator alloc, final HttpResponseStatus status,
        final String message)
    {
        final String shown = ClientText.message(message);
        final ByteBuf body = alloc.buffer(64 + (shown == null ? 0 : shown.length()));
        MetadataJson.error(new JsonOutput(body), shown);
        return json(status, body);
    }

    /**
     * @param alloc   allocator
     * @param failure an error with its category
     * @return {@code {"error":..}} with the HTTP status Triton maps the category to
     */
    public static FullHttpResponse error(final ByteBufAllocator alloc, final InferenceException failure)
    {
        final FullHttpResponse response = error(alloc, HttpResponseStatus.valueOf(failure.code().httpStatus()),
            failure.getMessage());
        if (failure.code() == ErrorCode.UNSUPPORTED && failure.getMessage() != null
            && failure.getMessage().contains("Content-Encoding"))
        {
            response.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip, deflate");
        }
        return response;
    }
}
