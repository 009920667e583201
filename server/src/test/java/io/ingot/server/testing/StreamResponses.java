package io.ingot.server.testing;

import io.grpc.stub.StreamObserver;
import io.ingot.protocol.grpc.ModelStreamInferResponse;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Collects the responses of one gRPC {@code ModelStreamInfer} stream by request id, and how the stream ended. Pass it
 * as the response observer; its methods are called on gRPC's threads, its getters read from the test's.
 */
public final class StreamResponses implements StreamObserver<ModelStreamInferResponse>
{
    private final Map<String, ModelStreamInferResponse> byId = new ConcurrentHashMap<>();
    private final List<ModelStreamInferResponse> all = new CopyOnWriteArrayList<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Throwable failure;

    @Override
    public void onNext(final ModelStreamInferResponse response)
    {
        byId.put(response.getInferResponse().getId(), response);
        all.add(response);
    }

    @Override
    public void onError(final Throwable t)
    {
        failure = t;
        ended.countDown();
    }

    @Override
    public void onCompleted()
    {
        ended.countDown();
    }

    /**
     * @param seconds how long to wait
     * @return whether the stream ended (completed or failed) in time
     * @throws InterruptedException when interrupted
     */
    public boolean awaitEnd(final long seconds) throws InterruptedException
    {
        return ended.await(seconds, TimeUnit.SECONDS);
    }

    /** @return the error the stream ended with, or {@code null} */
    public Throwable failure()
    {
        return failure;
    }

    /** @return every response so far, in the order they arrived (a decoupled model's many per request) */
    public List<ModelStreamInferResponse> all()
    {
        return all;
    }

    /** @return the responses so far, by request id (the last one of each id) */
    public Map<String, ModelStreamInferResponse> byId()
    {
        return byId;
    }
}
