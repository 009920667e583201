package io.ingot.core;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.ring.BoundedMpmcQueue;

import java.util.function.Consumer;

/** Recycles closed responses so that steady-state traffic allocates none. */
final class ResponsePool
{
    private final BoundedMpmcQueue<InferenceResponse> free = new BoundedMpmcQueue<>(8192);
    private final Consumer<InferenceResponse> recycler = free::offer;

    InferenceResponse acquire()
    {
        final InferenceResponse response = free.poll();
        return response != null ? response : ResponseAssembly.newResponse(recycler);
    }
}
