package io.ingot.perf.baseline;

import io.ingot.perf.LoadClient;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.RequestInputs;
import io.ingot.perf.ServerCounters;

/**
 * A library called directly on the caller's thread, the baseline a user has without a server: there are no server
 * counters, and every client is made from the tensors {@link #prepare} fixed. Subclasses make the clients.
 */
abstract class DirectTarget implements LoadTarget
{
    private RequestInputs prepared;

    @Override
    public final void prepare(final RequestInputs inputs)
    {
        this.prepared = inputs;
    }

    @Override
    public final LoadClient newClient()
    {
        if (prepared == null)
        {
            throw new IllegalStateException("prepare() must be called before clients are made");
        }
        return newClient(prepared);
    }

    /**
     * @param inputs the tensors every request carries
     * @return a client sending them, one request at a time
     */
    protected abstract LoadClient newClient(RequestInputs inputs);

    /** @return {@code null}: no server stands between the clients and the library */
    @Override
    public final ServerCounters counters()
    {
        return null;
    }
}
