package io.ingot.server.trace;

import io.ingot.api.RequestTrace;

/**
 * One sampled request's trace: its id, the setting it was sampled under, the frontend's timestamps (receive start
 * and end, send start and end) and the core's ({@link #core()}), in {@link System#nanoTime()} nanoseconds (Triton's
 * steady clock). Made only for a sampled request. The frontend fills it on the request's own path, in order, then
 * hands it to {@link TraceManager#complete}; not thread-safe beyond that hand-over.
 */
public final class ServerTrace
{
    final long id;
    final TraceSetting setting;
    final String model;
    final TraceFrontend frontend;
    private final RequestTrace core = new RequestTrace();
    long recvStartNs;
    long recvEndNs;
    long sendStartNs;
    long sendEndNs;
    String requestId = "";
    long version = -1;

    ServerTrace(final long id, final TraceSetting setting, final String model, final TraceFrontend frontend)
    {
        this.frontend = frontend;
        this.id = id;
        this.setting = setting;
        this.model = model;
    }

    /** @return the timestamps the core fills: attach it to the request with {@code request.trace(...)} */
    public RequestTrace core()
    {
        return core;
    }

    /**
     * @param startNs when the request started to arrive
     * @param endNs   when it was received whole
     */
    public void received(final long startNs, final long endNs)
    {
        recvStartNs = startNs;
        recvEndNs = endNs;
    }

    /**
     * @param id      the request's id ({@code ""} when none)
     * @param version the version that answered it, or -1 when unknown
     */
    public void answeredBy(final String id, final long version)
    {
        this.requestId = id == null ? "" : id;
        this.version = version;
    }

    /** @param nanos when the response started to be written */
    public void sendStarted(final long nanos)
    {
        sendStartNs = nanos;
    }

    /** @param nanos when the response was written */
    public void sendEnded(final long nanos)
    {
        sendEndNs = nanos;
    }

    /** @return the trace's id (Triton's {@code "id"}), from 1 */
    public long id()
    {
        return id;
    }
}
