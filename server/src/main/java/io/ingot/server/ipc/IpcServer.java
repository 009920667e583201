package io.ingot.server.ipc;

import io.ingot.agent.AgentRunner;
import io.ingot.agent.BackoffIdleStrategy;
import io.ingot.agent.IdleStrategy;
import io.ingot.agent.SpinningIdleStrategy;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.device.HostRegistration;
import io.ingot.ipc.Doorbell;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.InferFrameDecoder;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.ProcessIdentity;
import io.ingot.time.NanoClock;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Serves an {@link InferenceCore} to other processes through the shared-memory region {@code /dev/shm/ingot-NAME}
 * (docs/ipc.md).
 *
 * <pre>{@code
 * try (IpcServer ipc = IpcServer.start(core, "demo"))
 * {
 *     // clients: IpcClient.connect("demo") (Java), IpcClient.connect("demo") (clients/python/ingot_ipc.py)
 * }
 * }</pre>
 *
 * <p>One IPC thread ({@code ingot-ipc-NAME}, an {@link IpcDutyCycle} on an {@link AgentRunner}) activates registering
 * clients, polls the request rings of active ones, validates every frame ({@link InferFrameDecoder}) and submits it to
 * the core with its inputs as views of the client's slab; the core's threads write outputs into the client's output
 * area (a {@code ResponseAllocator}) and the RESPONSE frames. The same thread heartbeats, and notices clients that
 * leave, die or hang, taking their slots back without touching any other client. {@link #close()} stops serving and
 * removes the file; the core stays open. A graceful stop first calls {@link #stopAccepting()} (new requests are
 * answered UNAVAILABLE, new clients wait) and {@link #awaitDrained(long)} (every request taken was answered), while the
 * core finishes its work.
 *
 * <p>Waiting: unless the idle mode is {@code SPINNING}, the IPC thread that finds no work spins, yields, then sleeps
 * in the kernel on the region's request doorbell (a futex, docs/ipc.md "Wake-ups") until a client rings it after
 * writing a frame, or until the next table scan is due (2 ms). Response frames ring the client's doorbell the same
 * way, so neither side pays a timed park's latency.
 */
public final class IpcServer implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(IpcServer.class.getName());
    private static final long CLOSE_DRAIN_NANOS = 10_000_000_000L;
    private static final int MAX_CACHED_NAMES = 4096;

    private final InferenceCore core;
    /** The core's clock: the one this server's thread and its waits read. */
    private final NanoClock clock;
    private final IpcRegion region;
    private final IpcLayout layout;
    private final IpcServerOptions options;
    private final MemorySegment memory;
    private final ClientSession[] sessions;
    private final InferFrameDecoder decoder = new InferFrameDecoder();
    private final NameTable names = new NameTable();
    private final ConcurrentHashMap<String, byte[]> nameBytes = new ConcurrentHashMap<>();
    private final HostRegistration pinning;
    private final Doorbell bell;
    private final IdleStrategy idler;
    private final AgentRunner runner;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile boolean running = true;
    private volatile boolean accepting = true;

    private final LongAdder clientsActivated = new LongAdder();
    private final LongAdder clientsReclaimed = new LongAdder();
    private final LongAdder clientsFaulted = new LongAdder();
    private final LongAdder requestsReceived = new LongAdder();
    private final LongAdder requestsRejected = new LongAdder();
    private final LongAdder responsesSent = new LongAdder();
    private final LongAdder responsesDropped = new LongAdder();
    private final LongAdder framesDropped = new LongAdder();
    private final LongAdder releasesAccepted = new LongAdder();
    private final LongAdder releasesRejected = new LongAdder();

    private IpcServer(final InferenceCore core, final IpcRegion region, final IpcServerOptions options,
        final HostRegistration pinning)
    {
        this.core = core;
        this.clock = core.clock();
        this.region = region;
        this.layout = region.layout();
        this.options = options;
        this.memory = region.memory();
        this.pinning = pinning;
        this.sessions = new ClientSession[layout.maxClients()];
        for (int slot = 0; slot < sessions.length; slot++)
        {
            sessions[slot] = new ClientSession(this, slot);
        }
        this.bell = Doorbell.server(memory);
        this.idler = switch (options.idleMode())
        {
            case SPINNING -> new SpinningIdleStrategy();
            case BACKOFF -> BackoffIdleStrategy.backoff(bell, this::hasReadableRequest);
            case BLOCKING -> BackoffIdleStrategy.blocking(bell, this::hasReadableRequest);
        };
        this.runner = new AgentRunner(new IpcDutyCycle(this), idler, true);
    }

    /**
     * Starts serving with the default options, except that the IPC thread waits for work as the core's threads do
     * ({@link InferenceCore#idleMode()}).
     *
     * @param core the core to serve (not closed by the server)
     * @param name the IPC name: clients connect to it; the region is {@code /dev/shm/ingot-NAME}
     * @return the running server
     * @see #start(InferenceCore, String, IpcServerOptions)
     */
    public static IpcServer start(final InferenceCore core, final String name)
    {
        return start(core, name, IpcServerOptions.builder().idleMode(core.idleMode()).build());
    }

    /**
     * Creates the region (mode 0600) and starts serving it.
     *
     * @param core    the core to serve (not closed by the server)
     * @param name    the IPC name, 1-64 characters of {@code [A-Za-z0-9._-]}
     * @param options sizes and waiting behaviour
     * @return the running server
     * @throws IllegalArgumentException              for an invalid name or option (named in the message)
     * @throws io.ingot.ipc.IpcNameInUseException     when a live server already serves the name
     * @throws io.ingot.ipc.IpcRegionFormatException  when a file that is not a region of this version is at the path
     * @throws io.ingot.ipc.IpcCapacityException      when {@code /dev/shm} lacks the space for the region
     */
    public static IpcServer start(final InferenceCore core, final String name, final IpcServerOptions options)
    {
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(options, "options");
        IpcRegion.pathOf(name);
        final IpcLayout layout = options.layout();
        final IpcRegion region = IpcRegion.create(name, layout, ProcessIdentity.current());
        final HostRegistration pinning;
        try
        {
            pinning = pin(region, options);
        }
        catch (final RuntimeException | Error ex)
        {
            region.unlink();
            region.close();
            throw ex;
        }
        final IpcServer server = new IpcServer(core, region, options, pinning);
        server.runner.start();
        LOG.log(System.Logger.Level.INFO, "Ingot IPC server '" + name + "' (generation "
            + region.header().generation() + ") serves " + region.path() + ": " + layout.maxClients()
            + " client slots of " + layout.slabLength() / (1 << 20) + " MiB; data region "
            + (pinning.isDevicePinned() ? "pinned for the GPU" : "pageable (" + pinning.reason() + ")"));
        return server;
    }

    /** @return the IPC name. */
    public String name()
    {
        return region.name();
    }

    /** @return the region file. */
    public Path path()
    {
        return region.path();
    }

    /** @return this server's generation (one more than the server it replaced). */
    public long generation()
    {
        return region.header().generation();
    }

    /** @return the region's sizes. */
    public IpcLayout layout()
    {
        return layout;
    }

    /** @return whether the data region is page-locked for the GPU (see {@link #dataRegionPinning()}) */
    public boolean isDataRegionPinned()
    {
        return pinning.isDevicePinned();
    }

    /** @return the data region's registration with the GPU: pinned, or not and why */
    public HostRegistration dataRegionPinning()
    {
        return pinning;
    }

    private static HostRegistration pin(final IpcRegion region, final IpcServerOptions options)
    {
        final IpcLayout layout = region.layout();
        final MemorySegment data = region.memory().asSlice(layout.dataOffset(),
            region.memory().byteSize() - layout.dataOffset());
        return options.pinDataRegion() ? HostRegistration.register(data)
            : HostRegistration.unpinned(data, "pinDataRegion is off");
    }

    /** @return how the IPC thread waits for work (its options', by default its core's) */
    public IdleMode idleMode()
    {
        return options.idleMode();
    }

    /** @return the counters so far. */
    public IpcServerStatistics statistics()
    {
        int active = 0;
        for (final ClientSession session : sessions)
        {
            final int phase = session.phase();
            active += phase == ClientSession.SERVING || phase == ClientSession.FAULTED ? 1 : 0;
        }
        return new IpcServerStatistics(active, clientsActivated.sum(), clientsReclaimed.sum(), clientsFaulted.sum(),
            requestsReceived.sum(), requestsRejected.sum(), responsesSent.sum(), responsesDropped.sum(),
            framesDropped.sum(), releasesAccepted.sum(), releasesRejected.sum(), idler.sleeps(), idler.wakeUps());
    }

    MemorySegment memory()
    {
        return memory;
    }

    boolean isClosing()
    {
        return closing.get();
    }

    boolean isRunning()
    {
        return running;
    }

    boolean isAccepting()
    {
        return accepting;
    }

    IpcRegion region()
    {
        return region;
    }

    NanoClock clock()
    {
        return clock;
    }

    ClientSession[] sessions()
    {
        return sessions;
    }

    /** Whether any served client has a request the IPC thread could read now: checked before it sleeps. */
    private boolean hasReadableRequest()
    {
        for (final ClientSession session : sessions)
        {
            if (session.hasReadableRequest())
            {
                return true;
            }
        }
        return !running;
    }

    /** Wakes the IPC thread if it sleeps (any thread). */
    void wakeUp()
    {
        bell.ring();
    }

    /** Validates one INFER frame of a client and submits it, or answers it with the reason it is invalid. */
    void handleInfer(final ClientSession client, final MemorySegment buffer, final int offset, final int length)
    {
        requestsReceived.increment();
        final int status = decoder.decode(buffer, offset, length, memory, client.slabStart(), client.outputAreaStart(),
            client.slabEnd());
        if (status == InferFrameDecoder.DROPPED)
        {
            framesDropped.increment();
            return;
        }
        final long correlationId = decoder.correlationId();
        if (status != IpcStatus.OK)
        {
            requestsRejected.increment();
            client.writeError(correlationId, -1, status, decoder.error());
            return;
        }
        if (!accepting)
        {
            requestsRejected.increment();
            client.writeError(correlationId, -1, IpcStatus.UNAVAILABLE, "the server is shutting down: it answers "
                + "the requests it took and accepts no new ones");
            return;
        }
        final RequestContext context = client.acquireContext();
        final InferenceRequest request = context.request();
        try
        {
            request.clearInputs()
                .clearRequestedOutputs()
                .modelName(names.get(buffer, decoder.modelNameOffset(), decoder.modelNameLength()))
                .modelVersion(decoder.modelVersion())
                .id(decoder.idLength() == 0 ? "" : FrameText.get(buffer, decoder.idOffset(), decoder.idLength()))
                .priority(decoder.priority())
                .timeoutMicros(decoder.timeoutMicros())
                .responseAllocator(context);
            applySequence(request, buffer);
            for (int i = 0; i < decoder.inputCount(); i++)
            {
                request.addInput(names.get(buffer, decoder.inputNameOffset(i), decoder.inputNameLength(i)),
                    DataType.fromConfigNumber(decoder.inputDataType(i).code()), decoder.inputShape(i),
                    memory.asSlice(decoder.inputOffset(i), decoder.inputLength(i)));
            }
            for (int i = 0; i < decoder.outputCount(); i++)
            {
                request.requestOutput(names.get(buffer, decoder.outputNameOffset(i), decoder.outputNameLength(i)));
            }
            context.begin(correlationId, client.session());
            core.submitAndRun(request, context);
        }
        catch (final InferenceException ex)
        {
            client.releaseContext(context);
            client.writeError(correlationId, -1, status(ex.code()), ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            client.releaseContext(context);
            LOG.log(System.Logger.Level.WARNING, "submitting request " + correlationId + " of IPC client slot "
                + client.slot() + " failed", ex);
            client.writeError(correlationId, -1, IpcStatus.INTERNAL, "the server could not submit the request: "
                + ex);
        }
    }

    /**
     * Copies the frame's sequence fields into the (reused) request, clearing those of its previous use. A string
     * correlation ID becomes a Java string (one allocation, as over HTTP and gRPC); a numeric one costs nothing.
     */
    private void applySequence(final InferenceRequest request, final MemorySegment buffer)
    {
        if (!decoder.inSequence())
        {
            request.sequence(0L, false, false);
        }
        else if (decoder.sequenceIdLength() > 0)
        {
            request.sequence(FrameText.get(buffer, decoder.sequenceIdOffset(), decoder.sequenceIdLength()),
                decoder.sequenceStart(), decoder.sequenceEnd());
        }
        else
        {
            request.sequence(decoder.sequenceId(), decoder.sequenceStart(), decoder.sequenceEnd());
        }
    }

    /**
     * @param code a core error category
     * @return the RESPONSE status for it
     */
    static int status(final ErrorCode code)
    {
        return switch (code)
        {
            case INVALID_ARG -> IpcStatus.INVALID_ARG;
            case NOT_FOUND -> IpcStatus.NOT_FOUND;
            case UNAVAILABLE -> IpcStatus.UNAVAILABLE;
            case INTERNAL -> IpcStatus.INTERNAL;
            case CANCELLED -> IpcStatus.CANCELLED;
            case UNSUPPORTED -> IpcStatus.UNSUPPORTED;
            case ALREADY_EXISTS -> IpcStatus.ALREADY_EXISTS;
            case UNKNOWN -> IpcStatus.UNKNOWN;
        };
    }

    byte[] nameBytes(final String name)
    {
        final byte[] cached = nameBytes.get(name);
        if (cached != null)
        {
            return cached;
        }
        final byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (nameBytes.size() < MAX_CACHED_NAMES)
        {
            nameBytes.putIfAbsent(name, bytes);
        }
        return bytes;
    }

    void countActivation()
    {
        clientsActivated.increment();
    }

    void countReclaim()
    {
        clientsReclaimed.increment();
    }

    void countFault()
    {
        clientsFaulted.increment();
    }

    void countResponse()
    {
        responsesSent.increment();
    }

    void countDroppedResponse()
    {
        responsesDropped.increment();
    }

    void countDroppedFrame()
    {
        framesDropped.increment();
    }

    void countRelease(final boolean accepted)
    {
        (accepted ? releasesAccepted : releasesRejected).increment();
    }

    void log(final System.Logger.Level level, final String message, final Throwable failure)
    {
        if (failure == null)
        {
            LOG.log(level, message);
        }
        else
        {
            LOG.log(level, message, failure);
        }
    }

    /**
     * Stops taking requests: from now on an INFER frame is answered UNAVAILABLE ("the server is shutting down") and
     * a registering client is not activated; requests already submitted are answered as they complete. Idempotent.
     */
    public void stopAccepting()
    {
        accepting = false;
    }

    /**
     * Waits until every request taken from a client was answered.
     *
     * @param deadlineNanos the time to give up at, on the core's clock ({@link InferenceCore#clock()}: the
     *                      system's {@link System#nanoTime()} unless the core was given another)
     * @return true when none is left in flight
     * @throws InterruptedException when interrupted
     */
    public boolean awaitDrained(final long deadlineNanos) throws InterruptedException
    {
        while (true)
        {
            int inFlight = 0;
            for (final ClientSession session : sessions)
            {
                inFlight += session.inFlight();
            }
            if (inFlight == 0)
            {
                return true;
            }
            if (clock.nanoTime() - deadlineNanos >= 0)
            {
                return false;
            }
            Thread.sleep(2);
        }
    }

    /**
     * Stops serving: clients see {@code server_state = CLOSED} and fail with "server closed"; requests in flight are
     * cancelled and their responses dropped; the file is removed. The core is not closed. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closing.compareAndSet(false, true))
        {
            return;
        }
        running = false;
        bell.ringAlways();
        try
        {
            runner.thread().join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        region.header().serverState(HeaderDescriptor.SERVER_CLOSED);
        for (final ClientSession session : sessions)
        {
            session.cancelAll();
        }
        final long deadline = clock.nanoTime() + CLOSE_DRAIN_NANOS;
        boolean drained = false;
        while (!drained && clock.nanoTime() < deadline)
        {
            drained = true;
            for (final ClientSession session : sessions)
            {
                drained &= session.inFlight() == 0;
            }
            if (!drained)
            {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        region.unlink();
        if (drained && !runner.thread().isAlive())
        {
            try
            {
                pinning.close();
            }
            catch (final RuntimeException ex)
            {
                LOG.log(System.Logger.Level.WARNING, "Ingot IPC server '" + region.name() + "' could not unpin its "
                    + "data region", ex);
            }
            region.close();
        }
        else
        {
            // Unmapping while the core may still touch a slab would fail those accesses; keep the mapping.
            LOG.log(System.Logger.Level.WARNING, "Ingot IPC server '" + region.name() + "' closed with requests "
                + "still in the core; their memory stays mapped until the process exits");
        }
        LOG.log(System.Logger.Level.INFO, "Ingot IPC server '" + region.name() + "' closed");
    }
}
