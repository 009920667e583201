package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.net.ClientText;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;

/**
 * Triton's {@code --http-max-input-size} rule (server {@code http_server.cc}, {@code data_compressor.h}): what it
 * bounds, and Triton's words when it refuses. It bounds the JSON of a request (the JSON part of a binary infer
 * request, the whole body otherwise), the bytes a JSON tensor's {@code data} converts to, a raw binary request's one
 * input, and a compressed body once decompressed. It does not bound the binary tensor data that follows an infer
 * request's JSON part: that is bounded only by the body memory all requests share ({@link RequestBodyBudget}) and by
 * the largest body the server reads ({@link HttpBodyAggregator#MAX_BODY_BYTES}). Immutable; thread-safe.
 *
 * @param bytes the limit (Triton's default 64 MiB)
 */
public record HttpInputLimit(long bytes)
{
    /** Triton's default {@code --http-max-input-size}: 64 MiB. */
    public static final long DEFAULT_BYTES = 64L << 20;

    private static final String HINT = " Use --http-max-input-size to increase the limit.";

    /** Checks the limit. */
    public HttpInputLimit
    {
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("the HTTP input limit must be positive, was " + bytes);
        }
    }

    /**
     * @param jsonBytes the size of a request's JSON
     * @throws InferenceException INVALID_ARG, Triton's "request JSON size of N bytes exceeds the maximum allowed
     *                            input size of M bytes. Use --http-max-input-size to increase the limit."
     */
    public void checkJson(final long jsonBytes)
    {
        if (jsonBytes > bytes)
        {
            throw jsonTooLarge(jsonBytes);
        }
    }

    /**
     * @param jsonBytes the size of a request's JSON, over the limit
     * @return Triton's refusal of it
     */
    InferenceException jsonTooLarge(final long jsonBytes)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "request JSON size of " + jsonBytes + " bytes exceeds"
            + " the maximum allowed input size of " + bytes + " bytes." + HINT);
    }

    /**
     * @param input    the input's name
     * @param byteSize the bytes its JSON {@code data} converts to
     * @throws InferenceException INVALID_ARG, Triton's "JSON input 'x' has a byte_size (N bytes) that exceeds the
     *                            maximum allowed value of M bytes. Use --http-max-input-size to increase the limit."
     */
    public void checkJsonTensor(final String input, final long byteSize)
    {
        if (byteSize > bytes)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "JSON input '" + ClientText.name(input)
                + "' has a byte_size (" + byteSize + " bytes) that exceeds the maximum allowed value of " + bytes
                + " bytes." + HINT);
        }
    }

    /**
     * @param byteSize the size of a raw binary request's input (its whole body)
     * @throws InferenceException INVALID_ARG, Triton's "Raw input has a byte_size (N bytes) that exceeds the maximum
     *                            allowed value of M bytes. Use --http-max-input-size to increase the limit."
     */
    public void checkRaw(final long byteSize)
    {
        if (byteSize > bytes)
        {
            throw rawTooLarge(byteSize);
        }
    }

    /**
     * @param byteSize the size of a raw binary request's input, over the limit
     * @return Triton's refusal of it
     */
    InferenceException rawTooLarge(final long byteSize)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "Raw input has a byte_size (" + byteSize + " bytes) that"
            + " exceeds the maximum allowed value of " + bytes + " bytes." + HINT);
    }

    /**
     * Applies the rule to a body from its request's head, so that a body the rule refuses is refused before it is
     * held: an infer request's JSON part (the {@code Inference-Header-Content-Length} it declares, or the whole body
     * without that header), a raw binary request's body (header {@code 0}), any other request's body. An infer
     * request with binary tensor data, or with a compressed body (bounded once decompressed), is not bounded here.
     * Costs a route lookup: called only for bodies larger than the limit.
     *
     * @param head      the request's line and headers
     * @param bodyBytes the body's size (declared, or received so far)
     * @return Triton's refusal, or {@code null} when the rule does not refuse this body
     */
    InferenceException refusal(final HttpRequest head, final long bodyBytes)
    {
        if (!(HttpRouter.route(head.method(), head.uri()) instanceof HttpRoute.Infer))
        {
            return bodyBytes > bytes ? jsonTooLarge(bodyBytes) : null;
        }
        try
        {
            if (ContentCoding.ofContentEncoding(head.headers().get(HttpHeaderNames.CONTENT_ENCODING))
                != ContentCoding.IDENTITY)
            {
                return null;
            }
        }
        catch (final InferenceException unsupported)
        {
            return null;  // refused for its coding when it is answered
        }
        final String header = head.headers().get(HttpInferDecoder.HEADER_LENGTH);
        if (header == null)
        {
            return bodyBytes > bytes ? jsonTooLarge(bodyBytes) : null;
        }
        final long json;
        try
        {
            json = Long.parseLong(header.trim());
        }
        catch (final NumberFormatException invalid)
        {
            return null;  // the decoder refuses the header itself
        }
        if (json == 0)
        {
            return bodyBytes > bytes ? rawTooLarge(bodyBytes) : null;
        }
        return json > bytes ? jsonTooLarge(json) : null;
    }

    /** @return Triton's refusal of a compressed body that decompresses to more than the limit */
    InferenceException decompressedTooLarge()
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "Decompressed data size exceeds the maximum allowed value"
            + " of " + bytes + " bytes." + HINT);
    }
}
