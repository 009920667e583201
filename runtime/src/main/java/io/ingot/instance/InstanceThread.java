package io.ingot.instance;

import io.ingot.api.InferenceResponse;

/**
 * The platform thread a model instance's agent runs on. It keeps, on a stack of its own, the responses closed on it
 * — those whose listener closes them where they are delivered, which is this thread — and the next responses it
 * opens come from there: a response then stays in this thread's cache lines, and opening and closing it costs no
 * atomic operation ({@link ResponsePool} is the shared pool behind it, for every other thread). In Netty's manner
 * (its {@code FastThreadLocalThread}): the state is found through {@code Thread.currentThread()}, so only this
 * thread ever touches it. Not thread-safe by design; {@link #keep} and {@link #take} are for this thread only.
 */
public final class InstanceThread extends Thread
{
    /** How many closed responses a thread keeps; the rest go back to the shared pool. */
    static final int KEPT_RESPONSES = 128;

    private final InferenceResponse[] kept = new InferenceResponse[KEPT_RESPONSES];
    private int count;

    /** @param task what the thread runs (an agent runner's duty cycle) */
    public InstanceThread(final Runnable task)
    {
        super(task);
    }

    /**
     * This thread: keeps a closed response for the next one it opens.
     *
     * @param response a closed response
     * @return whether it was kept ({@code false}: the stack is full)
     */
    boolean keep(final InferenceResponse response)
    {
        if (count == kept.length)
        {
            return false;
        }
        kept[count++] = response;
        return true;
    }

    /** @return this thread: a response it kept, or {@code null} when it keeps none */
    InferenceResponse take()
    {
        if (count == 0)
        {
            return null;
        }
        final InferenceResponse response = kept[--count];
        kept[count] = null;
        return response;
    }

    /** @return how many closed responses this thread keeps (tests) */
    int keptResponses()
    {
        return count;
    }
}
