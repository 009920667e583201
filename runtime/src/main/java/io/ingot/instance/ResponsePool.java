package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.ring.BoundedMpmcQueue;

import java.util.function.Consumer;

/**
 * Recycles closed responses so that steady-state traffic allocates none: a response closed by its receiver comes
 * back, and the next one opened is taken from here. One per core. An {@link InstanceThread} keeps the responses closed
 * on it for the next ones it opens, without atomics (a listener that closes its response where it is delivered
 * closes it on the instance's thread); every other thread's go through the shared queue, and an instance thread takes
 * from it when it keeps none. Responses are alike whichever pool made them: an instance thread of one core that closes
 * another core's response keeps it like its own. Thread-safe: any thread acquires and closes.
 */
public final class ResponsePool
{
    private final BoundedMpmcQueue<InferenceResponse> free = new BoundedMpmcQueue<>(8192);
    private final Consumer<InferenceResponse> recycler = this::recycle;

    /** @return a response with no content, recycled when one is free (its receiver returns it by closing it) */
    public InferenceResponse acquire()
    {
        if (Thread.currentThread() instanceof InstanceThread own)
        {
            final InferenceResponse kept = own.take();
            if (kept != null)
            {
                return kept;
            }
        }
        final InferenceResponse response = free.poll();
        return response != null ? response : ResponseAssembly.newResponse(recycler);
    }

    private void recycle(final InferenceResponse response)
    {
        if (Thread.currentThread() instanceof InstanceThread own && own.keep(response))
        {
            return;
        }
        free.offer(response);
    }
}
