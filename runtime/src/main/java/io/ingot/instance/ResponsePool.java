package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.ring.BoundedMpmcQueue;

import java.util.function.Consumer;

/**
 * Recycles closed responses so that steady-state traffic allocates none: a response closed by its receiver goes back
 * here, and the next one opened for any model of the core is taken from here. One per core. Thread-safe: instances
 * acquire, any thread closes.
 */
public final class ResponsePool
{
    private final BoundedMpmcQueue<InferenceResponse> free = new BoundedMpmcQueue<>(8192);
    private final Consumer<InferenceResponse> recycler = free::offer;

    /** @return a response with no content, recycled when one is free (its receiver returns it by closing it) */
    public InferenceResponse acquire()
    {
        final InferenceResponse response = free.poll();
        return response != null ? response : ResponseAssembly.newResponse(recycler);
    }
}
