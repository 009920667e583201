package io.ingot.server.ipc;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The preallocated {@link RequestContext}s of one client slot, one per request it may have in flight
 * ({@code max_in_flight}). The IPC thread takes one for each request it reads; the core's thread that delivered the
 * response gives it back. Thread-safe: the table is guarded by its own lock, the count in flight is atomic.
 */
final class RequestContexts
{
    private final RequestContext[] contexts;
    private final boolean[] busy;
    private final AtomicInteger inFlight = new AtomicInteger();
    private int hint;

    /**
     * @param client the slot the contexts serve
     * @param max    how many requests may be in flight
     */
    RequestContexts(final ClientSession client, final int max)
    {
        this.contexts = new RequestContext[max];
        this.busy = new boolean[max];
        for (int i = 0; i < max; i++)
        {
            contexts[i] = new RequestContext(client);
        }
    }

    /** @return requests in flight now */
    int inFlight()
    {
        return inFlight.get();
    }

    /** @return how many may be in flight */
    int capacity()
    {
        return contexts.length;
    }

    /**
     * @param slot the client slot, for the message
     * @return a free context, counted in flight; there is one when fewer than {@link #capacity()} are in flight
     */
    RequestContext acquire(final int slot)
    {
        final int max = contexts.length;
        for (int probe = 0; probe < max; probe++)
        {
            final int index = (hint + probe) % max;
            synchronized (busy)
            {
                if (!busy[index])
                {
                    busy[index] = true;
                    hint = index + 1;
                    inFlight.incrementAndGet();
                    return contexts[index];
                }
            }
        }
        throw new IllegalStateException("IPC client slot " + slot + " has no free request context although "
            + inFlight.get() + " of " + max + " are in flight");
    }

    /**
     * @param context a context {@link #acquire}d before
     * @return whether every context was busy until now (the IPC thread may have stopped reading the client's ring)
     */
    boolean release(final RequestContext context)
    {
        synchronized (busy)
        {
            for (int i = 0; i < contexts.length; i++)
            {
                if (contexts[i] == context)
                {
                    busy[i] = false;
                    break;
                }
            }
        }
        return inFlight.decrementAndGet() == contexts.length - 1;
    }

    /** Cancels the request of every context in flight; their responses still come, through the contexts. */
    void cancelAll()
    {
        synchronized (busy)
        {
            for (int i = 0; i < contexts.length; i++)
            {
                if (busy[i])
                {
                    contexts[i].request().cancel();
                }
            }
        }
    }
}
