package io.ingot.server.ipc;

import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.Doorbell;
import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.ProcessIdentity;
import io.ingot.ipc.ReleaseFrameFlyweight;
import io.ingot.ipc.ResponseFrameFlyweight;
import io.ingot.ipc.SlabAllocator;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.ipc.Utf8;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's side of one client slot (docs/ipc.md, "Client lifecycle"): its rings, its output-area allocator, its
 * in-flight requests and its liveness. The IPC thread activates, polls, faults and reclaims it; the core's threads
 * write responses through it, one at a time under {@link #responseLock}.
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

    /** Wake mode: a full fence, then a system call only if {@code client_waiting} is up ({@link Doorbell#ring()}). */
    static final int WAKE_IF_FLAGGED = 0;
    /** Wake mode: change the doorbell, then a system call only if the flag is up ({@link Doorbell#changeAndRing()}). */
    static final int WAKE_CHANGE_THEN_FLAG = 1;
    /** Wake mode: change the doorbell and make the system call after every response ({@link Doorbell#ringAlways()}). */
    static final int WAKE_ALWAYS = 2;

    private static final int POLL_BATCH = 16;
    private static final byte[] EMPTY = new byte[0];

    private final IpcServer server;
    private final int slot;
    private final MemorySegment memory;
    private final ClientEntryFlyweight entry = new ClientEntryFlyweight();
    private final MemorySegment requestRing;
    private final MemorySegment responseRing;
    private final IpcRingReader requests;
    private final IpcRingWriter responses;
    private final SlabAllocator outputs;
    private final long slabStart;
    private final long slabEnd;
    private final long outputStart;
    private final long outputEnd;
    private final int maxInFlight;
    private final RequestContext[] contexts;
    private final boolean[] contextBusy;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object responseLock = new Object();
    private final ResponseFrameFlyweight responseFrame = new ResponseFrameFlyweight();
    private final TensorEntryFlyweight outputEntry = new TensorEntryFlyweight();
    private final ReleaseFrameFlyweight releaseFrame = new ReleaseFrameFlyweight();
    private final IpcRingReader.Handler handler = this::onRecord;
    private final long[] resolvedOffsets = new long[IpcLimits.MAX_OUTPUTS];
    private final Doorbell clientBell;

    private volatile int phase = IDLE;
    private volatile long session;
    /** How this session's client is woken: one of the {@code WAKE_*} below (docs/ipc.md, "Wake-ups"). */
    private volatile int wakeMode;
    private int contextHint;
    private long lastHeartbeat;
    private long lastHeartbeatChange;

    ClientSession(final IpcServer server, final int slot)
    {
        final IpcLayout layout = server.layout();
        this.server = server;
        this.slot = slot;
        this.memory = server.memory();
        entry.wrap(memory, layout.clientEntryOffset(slot));
        this.clientBell = Doorbell.client(memory, layout.clientEntryOffset(slot));
        this.requestRing = memory.asSlice(layout.requestRingOffset(slot), layout.requestRingLength());
        this.responseRing = memory.asSlice(layout.responseRingOffset(slot), layout.responseRingLength());
        this.requests = new IpcRingReader(requestRing);
        this.responses = new IpcRingWriter(responseRing);
        this.slabStart = layout.slabOffset(slot);
        this.slabEnd = slabStart + layout.slabLength();
        this.outputStart = layout.outputAreaOffset(slot);
        this.outputEnd = slabEnd;
        this.outputs = new SlabAllocator(outputStart, layout.outputAreaLength());
        this.maxInFlight = layout.maxInFlight();
        this.contexts = new RequestContext[maxInFlight];
        this.contextBusy = new boolean[maxInFlight];
        for (int i = 0; i < maxInFlight; i++)
        {
            contexts[i] = new RequestContext(this);
        }
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
        return inFlight.get();
    }

    ClientEntryFlyweight entry()
    {
        return entry;
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
        synchronized (outputs)
        {
            outputs.reset();
        }
        final long next = entry.session() + 1;
        entry.session(next).fault(0, "");
        session = next;
        lastHeartbeat = entry.heartbeat();
        lastHeartbeatChange = now;
        wakeMode = wakeModeOf(entry.clientKind(), entry.clientFlags());
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
        final int busy = inFlight.get();
        if (busy >= maxInFlight)
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
            server.countRelease(freeOutput(releaseFrame.entryOffset(i), releaseFrame.entryLength(i)));
        }
    }

    /** @return a free context, counted in flight; there is one because {@link #poll} checks first. */
    RequestContext acquireContext()
    {
        for (int probe = 0; probe < maxInFlight; probe++)
        {
            final int index = (contextHint + probe) % maxInFlight;
            synchronized (contextBusy)
            {
                if (!contextBusy[index])
                {
                    contextBusy[index] = true;
                    contextHint = index + 1;
                    inFlight.incrementAndGet();
                    return contexts[index];
                }
            }
        }
        throw new IllegalStateException("IPC client slot " + slot + " has no free request context although "
            + inFlight.get() + " of " + maxInFlight + " are in flight");
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
        synchronized (contextBusy)
        {
            for (int i = 0; i < maxInFlight; i++)
            {
                if (contextBusy[i])
                {
                    contexts[i].request().cancel();
                }
            }
        }
    }

    /**
     * Frees a draining slot once nothing in flight can touch its slab any more.
     *
     * @return whether the slot is FREE now
     */
    boolean finishReclaim()
    {
        if (phase != DRAINING || inFlight.get() != 0)
        {
            return false;
        }
        IpcRingReader.reset(requestRing);
        IpcRingReader.reset(responseRing);
        synchronized (outputs)
        {
            outputs.reset();
        }
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
        synchronized (contextBusy)
        {
            for (int i = 0; i < maxInFlight; i++)
            {
                if (contextBusy[i])
                {
                    contexts[i].request().cancel();
                }
            }
        }
    }

    // ---------------------------------------------------------------- any thread

    void releaseContext(final RequestContext context)
    {
        synchronized (contextBusy)
        {
            for (int i = 0; i < maxInFlight; i++)
            {
                if (contexts[i] == context)
                {
                    contextBusy[i] = false;
                    break;
                }
            }
        }
        if (inFlight.decrementAndGet() == maxInFlight - 1)
        {
            // The IPC thread may have stopped reading this client's ring when it was full: let it look again.
            server.wakeUp();
        }
    }

    long allocateOutput(final long bytes)
    {
        synchronized (outputs)
        {
            return outputs.allocate(bytes);
        }
    }

    boolean freeOutput(final long offset, final long length)
    {
        synchronized (outputs)
        {
            return outputs.free(offset, length);
        }
    }

    long outputFreeBytes()
    {
        synchronized (outputs)
        {
            return outputs.freeBytes();
        }
    }

    long outputCapacity()
    {
        return outputs.capacity();
    }

    /**
     * Writes the RESPONSE frame of a finished request. Outputs the core placed outside this client's output area
     * are copied into it first.
     *
     * @return false when the frame could not be written (the caller drops the response)
     */
    boolean writeResponse(final long correlationId, final RequestContext context, final InferenceResponse response)
    {
        if (!response.isOk())
        {
            final InferenceException error = response.error();
            return writeError(correlationId, response.modelVersion(), IpcServer.status(error.code()),
                error.getMessage());
        }
        final int count = response.outputCount();
        if (count > IpcLimits.MAX_OUTPUTS)
        {
            return writeError(correlationId, response.modelVersion(), IpcStatus.UNSUPPORTED, "model '"
                + response.modelName() + "' returned " + count + " outputs; an IPC response carries at most "
                + IpcLimits.MAX_OUTPUTS + ": request the outputs you need");
        }
        int length = ResponseFrameFlyweight.MESSAGE_OFFSET;
        for (int i = 0; i < count; i++)
        {
            final OutputTensor output = response.output(i);
            if (output.rank() > IpcLimits.MAX_RANK)
            {
                return writeError(correlationId, response.modelVersion(), IpcStatus.UNSUPPORTED, "output '"
                    + output.name() + "' has rank " + output.rank() + "; IPC carries at most " + IpcLimits.MAX_RANK);
            }
            length += TensorEntryFlyweight.encodedLength(output.rank(), server.nameBytes(output.name()).length);
        }
        synchronized (responseLock)
        {
            for (int i = 0; i < count; i++)
            {
                final MemorySegment data = response.output(i).data();
                final long offset = data.address() - memory.address();
                if (data.scope().equals(memory.scope()) && offset >= outputStart && offset <= outputEnd
                    && data.byteSize() <= outputEnd - offset)
                {
                    resolvedOffsets[i] = offset;
                    continue;
                }
                // The core placed this output elsewhere: one copy into the client's output area.
                try
                {
                    resolvedOffsets[i] = context.allocateCopy(response.output(i).name(), data.byteSize());
                }
                catch (final InferenceException ex)
                {
                    return writeError(correlationId, response.modelVersion(), IpcStatus.UNAVAILABLE,
                        ex.getMessage());
                }
                MemorySegment.copy(data, 0, memory, resolvedOffsets[i], data.byteSize());
            }
            final int index = claim(length);
            if (index < 0)
            {
                return false;
            }
            responseFrame.wrap(responses.buffer(), index)
                .correlationId(correlationId)
                .modelVersion(response.modelVersion())
                .status(IpcStatus.OK)
                .message(EMPTY)
                .outputCount(count);
            long cursor = responseFrame.firstOutputOffset();
            for (int i = 0; i < count; i++)
            {
                final OutputTensor output = response.output(i);
                final int rank = output.rank();
                outputEntry.wrap(responses.buffer(), cursor)
                    .rank(rank)
                    .dataType(output.dataType().configNumber())
                    .tensorOffset(resolvedOffsets[i])
                    .length(output.data().byteSize());
                for (int d = 0; d < rank; d++)
                {
                    outputEntry.dim(d, output.dim(d));
                }
                outputEntry.name(server.nameBytes(output.name()));
                cursor += outputEntry.encodedLength();
            }
            responses.commit(index);
        }
        wakeClient();
        server.countResponse();
        return true;
    }

    /**
     * Writes an error RESPONSE frame.
     *
     * @return false when it could not be written
     */
    boolean writeError(final long correlationId, final long modelVersion, final int status, final String message)
    {
        final byte[] text = Utf8.truncate(message, IpcLimits.MAX_MESSAGE_LENGTH);
        synchronized (responseLock)
        {
            final int index = claim(ResponseFrameFlyweight.MESSAGE_OFFSET + IpcLimits.align8(text.length));
            if (index < 0)
            {
                return false;
            }
            responseFrame.wrap(responses.buffer(), index)
                .correlationId(correlationId)
                .modelVersion(modelVersion)
                .status(status)
                .message(text)
                .outputCount(0);
            responses.commit(index);
        }
        wakeClient();
        server.countResponse();
        return true;
    }

    /**
     * @param kind  the entry's {@code client_kind}
     * @param flags the entry's {@code client_flags}
     * @return how to wake that client: a client that waits without a fence has its doorbell changed before its flag is
     *         read; an older Python client, which raises no flag, is always woken; any other client fences, and is
     *         woken only when its flag is up
     */
    static int wakeModeOf(final int kind, final int flags)
    {
        if ((flags & ClientEntryDescriptor.FLAG_WAITS_WITHOUT_FENCE) != 0)
        {
            return WAKE_CHANGE_THEN_FLAG;
        }
        return kind == ClientEntryDescriptor.KIND_PYTHON ? WAKE_ALWAYS : WAKE_IF_FLAGGED;
    }

    /** Wakes the client if it may sleep on its doorbell, as its {@link #wakeModeOf wake mode} says. */
    private void wakeClient()
    {
        switch (wakeMode)
        {
            case WAKE_CHANGE_THEN_FLAG -> clientBell.changeAndRing();
            case WAKE_ALWAYS -> clientBell.ringAlways();
            default -> clientBell.ring();
        }
    }

    private int claim(final int length)
    {
        try
        {
            final int index = responses.tryClaim(ResponseFrameFlyweight.TYPE, length);
            return index == IpcRingWriter.INSUFFICIENT_CAPACITY ? -1 : index;
        }
        catch (final IpcRingCorruptException ex)
        {
            fault(ClientEntryDescriptor.FAULT_RING_CORRUPT, "response ring corrupt: " + ex.getMessage());
            return -1;
        }
    }

}
