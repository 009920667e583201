package io.ingot.server.ipc;

import io.ingot.api.InferenceResponse;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.Doorbell;
import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.ProcessIdentity;
import io.ingot.ipc.ReleaseFrameFlyweight;

import java.lang.foreign.MemorySegment;

/**
 * The server's side of one client slot (docs/ipc.md, "Client lifecycle"): its phase and session, the reading of its
 * request ring and its liveness. The IPC thread activates, polls, faults and reclaims it. Its parts each have one job:
 * the in-flight requests ({@link RequestContexts}), the output area ({@link OutputArea}) and the writing of responses
 * ({@link ResponseWriter}, which the core's threads call through {@link #writeResponse}, with the {@link ClientWaker}
 * that wakes the client after each).
 */
final class ClientSession
{
    /** Not serving: the entry is FREE or REQUESTED. */
    static final int IDLE = 0;
    /** Serving the request ring. */
    static final int SERVING = 1;
    /** Not reading requests any more; responses of requests in flight are still written. */
    static final int FAULTED = 2;
    /** Waiting for in-flight requests to finish before the slot is freed; responses are dropped. */
    static final int DRAINING = 3;

    private static final int POLL_BATCH = 16;

    private final IpcServer server;
    private final int slot;
    private final MemorySegment memory;
    private final ClientEntryFlyweight entry = new ClientEntryFlyweight();
    private final MemorySegment requestRing;
    private final MemorySegment responseRing;
    private final IpcRingReader requests;
    private final OutputArea outputs;
    private final long slabStart;
    private final long outputAreaStart;
    private final long slabEnd;
    private final RequestContexts contexts;
    private final ClientWaker waker;
    private final ResponseWriter responses;
    private final ReleaseFrameFlyweight releaseFrame = new ReleaseFrameFlyweight();
    private final IpcRingReader.Handler handler = this::onRecord;

    private volatile int phase = IDLE;
    private volatile long session;
    private long lastHeartbeat;
    private long lastHeartbeatChange;

    ClientSession(final IpcServer server, final int slot)
    {
        final IpcLayout layout = server.layout();
        this.server = server;
        this.slot = slot;
        this.memory = server.memory();
        entry.wrap(memory, layout.clientEntryOffset(slot));
        this.requestRing = memory.asSlice(layout.requestRingOffset(slot), layout.requestRingLength());
        this.responseRing = memory.asSlice(layout.responseRingOffset(slot), layout.responseRingLength());
        this.requests = new IpcRingReader(requestRing);
        this.slabStart = layout.slabOffset(slot);
        this.outputAreaStart = layout.outputAreaOffset(slot);
        this.slabEnd = slabStart + layout.slabLength();
        this.outputs = new OutputArea(layout.outputAreaOffset(slot), layout.outputAreaLength());
        this.contexts = new RequestContexts(this, layout.maxInFlight());
        this.waker = new ClientWaker(Doorbell.client(memory, layout.clientEntryOffset(slot)));
        this.responses = new ResponseWriter(this, server, memory, new IpcRingWriter(responseRing), outputs,
            waker);
    }

    int slot()
    {
        return slot;
    }

    IpcServer server()
    {
        return server;
    }

    MemorySegment memory()
    {
        return memory;
    }

    int phase()
    {
        return phase;
    }

    long slabStart()
    {
        return slabStart;
    }

    /** @return file offset of this client's output area (where the server allocates outputs; inputs end before it) */
    long outputAreaStart()
    {
        return outputAreaStart;
    }

    long slabEnd()
    {
        return slabEnd;
    }

    long session()
    {
        return session;
    }

    int inFlight()
    {
        return contexts.inFlight();
    }

    ClientEntryFlyweight entry()
    {
        return entry;
    }

    OutputArea outputs()
    {
        return outputs;
    }

    /**
     * @param requestSession the session a request was read in
     * @return whether that request's response should still be written
     */
    boolean accepts(final long requestSession)
    {
        final int current = phase;
        return (current == SERVING || current == FAULTED) && session == requestSession && !server.isClosing();
    }

    // ---------------------------------------------------------------- IPC thread

    /** Activates a REQUESTED entry: clean rings and output area, a new session, state ACTIVE. */
    void activate(final long now)
    {
        IpcRingReader.reset(requestRing);
        IpcRingReader.reset(responseRing);
        outputs.reset();
        final long next = entry.session() + 1;
        entry.session(next).fault(0, "");
        session = next;
        lastHeartbeat = entry.heartbeat();
        lastHeartbeatChange = now;
        waker.adopt(entry.clientKind(), entry.clientFlags());
        phase = SERVING;
        if (entry.compareAndSetState(ClientEntryDescriptor.REQUESTED, ClientEntryDescriptor.ACTIVE))
        {
            server.countActivation();
        }
        else
        {
            beginReclaim("the client left while registering");
        }
    }

    /**
     * Reads requests while the client has room for more in flight.
     *
     * @return records handled
     */
    int poll()
    {
        int handled = 0;
        while (handled < POLL_BATCH && phase == SERVING && hasRoomForRequest())
        {
            try
            {
                if (requests.read(handler, 1) == 0)
                {
                    break;
                }
            }
            catch (final IpcRingCorruptException ex)
            {
                fault(ClientEntryDescriptor.FAULT_RING_CORRUPT, "request ring corrupt: " + ex.getMessage());
                break;
            }
            handled++;
        }
        return handled;
    }

    /** @return whether a request waits in the ring and could be read now (the IPC thread's check before sleeping) */
    boolean hasReadableRequest()
    {
        return phase == SERVING && requests.hasRecord() && hasRoomForRequest();
    }

    /** Room for one more request in flight, and in the response ring for its answer and all earlier ones. */
    private boolean hasRoomForRequest()
    {
        final int busy = contexts.inFlight();
        if (busy >= contexts.capacity())
        {
            return false;
        }
        try
        {
            return responses.freeBytes() >= (long)(busy + 2) * IpcLimits.MAX_RESPONSE_RECORD_LENGTH;
        }
        catch (final IpcRingCorruptException ex)
        {
            fault(ClientEntryDescriptor.FAULT_RING_CORRUPT, "response ring corrupt: " + ex.getMessage());
            return false;
        }
    }

    private void onRecord(final int type, final MemorySegment buffer, final int offset, final int length)
    {
        switch (type)
        {
            case InferFrameFlyweight.TYPE -> server.handleInfer(this, buffer, offset, length);
            case ReleaseFrameFlyweight.TYPE -> handleRelease(buffer, offset, length);
            default -> server.countDroppedFrame();
        }
    }

    private void handleRelease(final MemorySegment buffer, final int offset, final int length)
    {
        if (length < ReleaseFrameFlyweight.ENTRIES_OFFSET)
        {
            server.countDroppedFrame();
            return;
        }
        releaseFrame.wrap(buffer, offset);
        final int count = releaseFrame.count();
        if (count < 1 || count > IpcLimits.MAX_RELEASES || length != ReleaseFrameFlyweight.encodedLength(count))
        {
            server.countDroppedFrame();
            return;
        }
        for (int i = 0; i < count; i++)
        {
            server.countRelease(outputs.free(releaseFrame.entryOffset(i), releaseFrame.entryLength(i)));
        }
    }

    /** @return a free context, counted in flight; there is one because {@link #poll} checks first. */
    RequestContext acquireContext()
    {
        return contexts.acquire(slot);
    }

    /** Stops serving the ring: the entry becomes FAULTED with the reason, which the client reports. */
    void fault(final int code, final String message)
    {
        if (phase != SERVING)
        {
            return;
        }
        phase = FAULTED;
        entry.fault(code, message);
        if (entry.compareAndSetState(ClientEntryDescriptor.ACTIVE, ClientEntryDescriptor.FAULTED))
        {
            server.countFault();
            server.log(System.Logger.Level.WARNING, "IPC client slot " + slot + " (pid " + entry.pid()
                + ") faulted: " + message, null);
        }
    }

    /** Starts taking the slot back: in-flight requests are cancelled and their responses dropped. */
    void beginReclaim(final String reason)
    {
        if (phase == DRAINING)
        {
            return;
        }
        phase = DRAINING;
        entry.state(ClientEntryDescriptor.RECLAIMING);
        server.log(System.Logger.Level.DEBUG, "reclaiming IPC client slot " + slot + " (pid " + entry.pid() + "): "
            + reason, null);
        contexts.cancelAll();
    }

    /**
     * Frees a draining slot once nothing in flight can touch its slab any more.
     *
     * @return whether the slot is FREE now
     */
    boolean finishReclaim()
    {
        if (phase != DRAINING || contexts.inFlight() != 0)
        {
            return false;
        }
        IpcRingReader.reset(requestRing);
        IpcRingReader.reset(responseRing);
        outputs.reset();
        entry.session(entry.session() + 1).fault(0, "").clearWaiting();
        session = -1;
        phase = IDLE;
        entry.state(ClientEntryDescriptor.FREE);
        server.countReclaim();
        return true;
    }

    /** Frees an entry a client gave up before it was ever served. */
    void freeUnserved()
    {
        entry.session(entry.session() + 1).fault(0, "").clearWaiting();
        entry.state(ClientEntryDescriptor.FREE);
    }

    /** Once per heartbeat interval: notices clients that died or hang. */
    void checkLiveness(final long now, final long timeoutNanos)
    {
        final long beat = entry.heartbeat();
        if (beat != lastHeartbeat)
        {
            lastHeartbeat = beat;
            lastHeartbeatChange = now;
        }
        final ProcessIdentity.Liveness liveness = ProcessIdentity.probe(entry.pid(), entry.startTicks(),
            entry.pidNamespace());
        if (liveness == ProcessIdentity.Liveness.GONE)
        {
            beginReclaim("its process " + entry.pid() + " is gone");
        }
        else if (now - lastHeartbeatChange > timeoutNanos)
        {
            if (liveness == ProcessIdentity.Liveness.ALIVE)
            {
                fault(ClientEntryDescriptor.FAULT_HEARTBEAT_TIMEOUT, "no heartbeat for "
                    + (now - lastHeartbeatChange) / 1_000_000 + " ms although process " + entry.pid() + " exists");
            }
            else
            {
                beginReclaim("no heartbeat for " + (now - lastHeartbeatChange) / 1_000_000 + " ms");
            }
        }
    }

    /** Cancels every request in flight (server shutdown). */
    void cancelAll()
    {
        contexts.cancelAll();
    }

    // ---------------------------------------------------------------- any thread

    void releaseContext(final RequestContext context)
    {
        if (contexts.release(context))
        {
            // The IPC thread may have stopped reading this client's ring when it was full: let it look again.
            server.wakeUp();
        }
    }

    /**
     * Writes the RESPONSE frame of a finished request ({@link ResponseWriter#writeResponse}).
     *
     * @return false when the frame could not be written (the caller drops the response)
     */
    boolean writeResponse(final long correlationId, final RequestContext context, final InferenceResponse response)
    {
        return responses.writeResponse(correlationId, context, response);
    }

    /**
     * Writes an error RESPONSE frame ({@link ResponseWriter#writeError}).
     *
     * @return false when it could not be written
     */
    boolean writeError(final long correlationId, final long modelVersion, final int status, final String message)
    {
        return responses.writeError(correlationId, modelVersion, status, message);
    }
}
