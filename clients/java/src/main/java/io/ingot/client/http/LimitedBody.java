package io.ingot.client.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body collected into one array, up to a limit: a declared {@code Content-Length} over the limit is
 * refused before a byte is read, and a body that grows past it while arriving is cut off (the subscription
 * cancelled), so a client never holds more than its limit of one response. Thread-safe as the HTTP client uses it.
 */
final class LimitedBody implements HttpResponse.BodyHandler<byte[]>
{
    private final int maxBytes;

    /** @param maxBytes the largest body accepted */
    LimitedBody(final int maxBytes)
    {
        this.maxBytes = maxBytes;
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(final HttpResponse.ResponseInfo info)
    {
        final long declared = info.headers().firstValueAsLong("content-length").orElse(-1);
        return new Collector(maxBytes, declared > maxBytes ? declared : -1);
    }

    /** Thrown (as the send's cause) when a body exceeds the limit. */
    static final class TooLargeException extends IOException
    {
        private static final long serialVersionUID = 1L;

        TooLargeException(final long size, final int limit)
        {
            super("the response of " + (size < 0 ? "more than " + limit : Long.toString(size))
                + " bytes exceeds this client's limit of " + limit + " bytes (ClientOptions.maxResponseBytes)");
        }
    }

    private static final class Collector implements HttpResponse.BodySubscriber<byte[]>
    {
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int maxBytes;
        private final long declaredTooLarge;
        private Flow.Subscription subscription;

        Collector(final int maxBytes, final long declaredTooLarge)
        {
            this.maxBytes = maxBytes;
            this.declaredTooLarge = declaredTooLarge;
        }

        @Override
        public CompletionStage<byte[]> getBody()
        {
            return result;
        }

        @Override
        public void onSubscribe(final Flow.Subscription newSubscription)
        {
            this.subscription = newSubscription;
            if (declaredTooLarge >= 0)
            {
                newSubscription.cancel();
                result.completeExceptionally(new TooLargeException(declaredTooLarge, maxBytes));
                return;
            }
            newSubscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(final List<ByteBuffer> buffers)
        {
            if (result.isDone())
            {
                return;
            }
            for (final ByteBuffer buffer : buffers)
            {
                if ((long)bytes.size() + buffer.remaining() > maxBytes)
                {
                    subscription.cancel();
                    result.completeExceptionally(new TooLargeException(-1, maxBytes));
                    return;
                }
                final byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(final Throwable error)
        {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete()
        {
            result.complete(bytes.toByteArray());
        }
    }
}
