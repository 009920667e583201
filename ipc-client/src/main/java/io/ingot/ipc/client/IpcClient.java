package io.ingot.ipc.client;

import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.Doorbell;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.HeaderFlyweight;
import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcCapacityException;
import io.ingot.ipc.IpcClientEvictedException;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcServerGoneException;
import io.ingot.ipc.IpcTimeoutException;
import io.ingot.ipc.ProcessIdentity;
import io.ingot.ipc.ReleaseFrameFlyweight;
import io.ingot.ipc.ResponseFrameFlyweight;
import io.ingot.ipc.SlabAllocator;
import io.ingot.ipc.TensorEntryFlyweight;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileLock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A connection to an Ingot IPC server through {@code /dev/shm/ingot-NAME} (docs/ipc.md): one client slot with its
 * request ring, response ring and slab.
 *
 * <pre>{@code
 * try (IpcClient client = IpcClient.connect("demo"))
 * {
 *     IpcTensor a = client.allocate(IpcDataType.FP32, 16);
 *     // ... write a.segment() ...
 *     long id = client.submit(new IpcRequest("identity").addInput("INPUT0", a));
 *     try (IpcResponse response = client.await(id, Duration.ofSeconds(5)).throwIfError())
 *     {
 *         MemorySegment out = response.output("OUTPUT0").segment();
 *     }
 *     a.close();
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one thread uses a client at a time (use one client per submitting thread). A background
 * daemon thread increments the slot's heartbeat. Every wait also watches the server: a closed, dead or restarted
 * server raises {@link IpcServerGoneException}, a slot the server faulted or reclaimed
 * {@link IpcClientEvictedException}; nothing hangs.
 */
public final class IpcClient implements AutoCloseable
{
    /** {@link #trySubmit} result when the request ring has no room now. */
    public static final long BACK_PRESSURED = -1;

    /** POSIX record locks belong to the process: threads of one JVM take turns before taking one. */
    private static final ReentrantLock PROCESS_REGISTRATION = new ReentrantLock();
    private static final ScheduledExecutorService HEARTBEATS = Executors.newSingleThreadScheduledExecutor(task ->
    {
        final Thread thread = new Thread(task, "ingot-ipc-client-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    /** Longest sleep on the response doorbell before the server's liveness is checked again. */
    private static final long MAX_SLEEP_NANOS = 5_000_000L;
    /** Spinning, then yielding this long covers a fast round trip without a sleep; longer waits sleep. */
    private static final long SPIN_NANOS = 5_000L;
    private static final long MAX_YIELD_NANOS = 50_000L;

    private final IpcRegion region;
    private final IpcLayout layout;
    private final MemorySegment memory;
    private final IpcClientOptions options;
    private final HeaderFlyweight header;
    private final ClientEntryFlyweight entry = new ClientEntryFlyweight();
    private final Doorbell serverBell;
    private final io.ingot.agent.IdleStrategy responseIdler;
    private final int slot;
    private final long generation;
    private final long serverPid;
    private final long serverStartTicks;
    private final long serverPidNamespace;

    private long session;
    private IpcRingWriter requests;
    private IpcRingReader responses;
    private SlabAllocator inputs;
    private long outputAreaStart;
    private long outputAreaEnd;
    private ScheduledFuture<?> heartbeatTask;
    private long heartbeat;

    private long nextCorrelationId = 1;
    private final Long2ObjectHashMap<IpcResponse> early = new Long2ObjectHashMap<>();
    private final ResponseFrameFlyweight responseFrame = new ResponseFrameFlyweight();
    private final TensorEntryFlyweight outputEntry = new TensorEntryFlyweight();
    private final ReleaseFrameFlyweight releaseFrame = new ReleaseFrameFlyweight();
    private final IpcRingReader.Handler decoder = this::onResponseRecord;
    private IpcResponse decoded;

    private String goneReason;
    private long lastServerHeartbeat = -1;
    private long lastServerHeartbeatChange;
    private long nextServerProbe;
    private volatile boolean closed;

    private IpcClient(final IpcRegion region, final IpcClientOptions options, final int slot)
    {
        this.region = region;
        this.layout = region.layout();
        this.memory = region.memory();
        this.options = options;
        this.header = region.header();
        this.slot = slot;
        this.generation = header.generation();
        this.serverPid = header.serverPid();
        this.serverStartTicks = header.serverStartTicks();
        this.serverPidNamespace = header.serverPidNamespace();
        entry.wrap(memory, layout.clientEntryOffset(slot));
        this.serverBell = Doorbell.server(memory);
        this.responseIdler = options.busySpin() ? new io.ingot.agent.SpinningIdleStrategy()
            : new io.ingot.agent.BackoffIdleStrategy(Doorbell.client(memory, layout.clientEntryOffset(slot)),
                () -> responses.hasRecord(), SPIN_NANOS, MAX_YIELD_NANOS);
    }

    /**
     * Connects with the default options.
     *
     * @param name the server's IPC name
     * @return a registered client
     * @see #connect(String, IpcClientOptions)
     */
    public static IpcClient connect(final String name)
    {
        return connect(name, IpcClientOptions.DEFAULTS);
    }

    /**
     * Maps the server's region, takes a free client slot and waits until the server activates it.
     *
     * @param name    the server's IPC name
     * @param options how to wait
     * @return a registered client
     * @throws io.ingot.ipc.IpcServerNotFoundException when no server serves the name
     * @throws IpcCapacityException                    when every client slot is taken
     * @throws IpcServerGoneException                  when the server closes or dies meanwhile
     * @throws IpcTimeoutException                     when the server does not activate the slot in time
     */
    public static IpcClient connect(final String name, final IpcClientOptions options)
    {
        final IpcRegion region = IpcRegion.open(name);
        try
        {
            final int slot = register(region);
            final IpcClient client = new IpcClient(region, options, slot);
            client.awaitActivation();
            return client;
        }
        catch (final RuntimeException ex)
        {
            closeRegion(region);
            throw ex;
        }
    }

    private static int register(final IpcRegion region)
    {
        final IpcLayout layout = region.layout();
        final ClientEntryFlyweight candidate = new ClientEntryFlyweight();
        PROCESS_REGISTRATION.lock();
        try (FileLock ignored = region.lock(HeaderDescriptor.REGISTRATION_LOCK_OFFSET))
        {
            for (int slot = 0; slot < layout.maxClients(); slot++)
            {
                candidate.wrap(region.memory(), layout.clientEntryOffset(slot));
                if (candidate.state() == ClientEntryDescriptor.FREE)
                {
                    candidate.client(ClientEntryDescriptor.KIND_JAVA, ProcessIdentity.current())
                        .state(ClientEntryDescriptor.REQUESTED);
                    return slot;
                }
            }
            throw new IpcCapacityException("all " + layout.maxClients() + " client slots of the Ingot IPC server '"
                + region.name() + "' are in use; close other clients or start the server with more maxClients");
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot release the registration lock of " + region.path() + ": "
                + ex.getMessage(), ex);
        }
        finally
        {
            PROCESS_REGISTRATION.unlock();
        }
    }

    private void awaitActivation()
    {
        final long deadline = System.nanoTime() + options.connectTimeout().toNanos();
        lastServerHeartbeatChange = System.nanoTime();
        long sleepMicros = 50;
        while (true)
        {
            final int state = entry.state();
            if (state == ClientEntryDescriptor.ACTIVE)
            {
                break;
            }
            if (state != ClientEntryDescriptor.REQUESTED)
            {
                throw new IpcClientEvictedException("client slot " + slot + " of '" + region.name() + "' went to "
                    + ClientEntryDescriptor.stateName(state) + " while registering");
            }
            checkServer(System.nanoTime());
            if (System.nanoTime() > deadline)
            {
                entry.state(ClientEntryDescriptor.CLOSING);
                throw new IpcTimeoutException("the Ingot IPC server '" + region.name() + "' did not accept client "
                    + "slot " + slot + " within " + options.connectTimeout().toMillis() + " ms; its heartbeat is "
                    + header.serverHeartbeat() + " (a heartbeat that does not move means the server is stuck)");
            }
            sleepMicros(sleepMicros);
            sleepMicros = Math.min(sleepMicros * 2, 5_000);
        }
        session = entry.session();
        requests = new IpcRingWriter(memory.asSlice(layout.requestRingOffset(slot), layout.requestRingLength()));
        responses = new IpcRingReader(memory.asSlice(layout.responseRingOffset(slot), layout.responseRingLength()));
        inputs = new SlabAllocator(layout.slabOffset(slot), layout.slabInputLength());
        outputAreaStart = layout.outputAreaOffset(slot);
        outputAreaEnd = layout.slabOffset(slot) + layout.slabLength();
        heartbeatTask = HEARTBEATS.scheduleAtFixedRate(this::beat, 0, layout.heartbeatIntervalMs(),
            TimeUnit.MILLISECONDS);
    }

    private void beat()
    {
        if (!closed && entry.state() == ClientEntryDescriptor.ACTIVE && entry.session() == session)
        {
            entry.heartbeat(++heartbeat);
        }
    }

    /**
     * Diagnostics of the wake-up path (docs/ipc.md, "Wake-ups").
     *
     * @return how many of this client's waits for a response slept on its doorbell until the server rang it
     */
    public long doorbellWakeUps()
    {
        return responseIdler.wakeUps();
    }

    /** @return the IPC name. */
    public String name()
    {
        return region.name();
    }

    /** @return this client's slot in the client table. */
    public int slot()
    {
        return slot;
    }

    /** @return the generation of the server this client is connected to. */
    public long generation()
    {
        return generation;
    }

    /** @return the region's sizes. */
    public IpcLayout layout()
    {
        return layout;
    }

    /** @return bytes free in this client's input area (possibly fragmented). */
    public long freeInputBytes()
    {
        return inputs.freeBytes();
    }

    /**
     * Allocates a tensor of a fixed-size type in this client's input area.
     *
     * @param dataType a type other than {@link IpcDataType#BYTES}
     * @param shape    the shape, each dimension {@code >= 0}, rank up to 8
     * @return the tensor, 64-byte aligned
     * @throws IpcCapacityException when the input area has no room
     */
    public IpcTensor allocate(final IpcDataType dataType, final long... shape)
    {
        if (dataType.byteSize() < 0)
        {
            throw new IllegalArgumentException("BYTES tensors have no fixed size: use allocate(BYTES, shape, "
                + "byteLength)");
        }
        long bytes = dataType.byteSize();
        for (final long dim : shape)
        {
            if (dim < 0)
            {
                throw new IllegalArgumentException("dimension " + dim + " of shape " + Arrays.toString(shape)
                    + " is negative");
            }
            bytes = Math.multiplyExact(bytes, dim);
        }
        return allocate(dataType, shape, bytes);
    }

    /**
     * Allocates a tensor of a given byte length, for {@link IpcDataType#BYTES} or any raw use.
     *
     * @param dataType   the element type recorded with the tensor
     * @param shape      the shape recorded with the tensor
     * @param byteLength bytes to allocate
     * @return the tensor, 64-byte aligned
     * @throws IpcCapacityException when the input area has no room
     */
    public IpcTensor allocate(final IpcDataType dataType, final long[] shape, final long byteLength)
    {
        checkUsable();
        if (shape.length > IpcLimits.MAX_RANK)
        {
            throw new IllegalArgumentException("rank " + shape.length + " exceeds the limit of " + IpcLimits.MAX_RANK);
        }
        final long offset = inputs.allocate(byteLength);
        if (offset == SlabAllocator.FAILED)
        {
            throw new IpcCapacityException("no room for a " + byteLength + "-byte tensor in the input area of client "
                + "slot " + slot + " (" + inputs.freeBytes() + " of " + inputs.capacity() + " bytes free, "
                + inputs.allocations() + " tensors allocated): close tensors you no longer need");
        }
        return new IpcTensor(this, dataType, shape.clone(), offset, byteLength, memory.asSlice(offset, byteLength));
    }

    void free(final IpcTensor tensor)
    {
        if (!closed)
        {
            inputs.free(tensor.offset(), tensor.byteLength());
        }
    }

    /**
     * Writes a request into the request ring if it has room now.
     *
     * @param request the request; its tensors must belong to this client
     * @return the request's correlation id ({@code > 0}), or {@link #BACK_PRESSURED}
     */
    public long trySubmit(final IpcRequest request)
    {
        checkUsable();
        checkServer(System.nanoTime());
        final int length = request.encodedLength();
        if (length > IpcLimits.MAX_REQUEST_FRAME_LENGTH)
        {
            throw new IllegalArgumentException("request for model '" + request.modelName() + "' encodes to " + length
                + " bytes; the limit is " + IpcLimits.MAX_REQUEST_FRAME_LENGTH);
        }
        final int index = requests.tryClaim(InferFrameFlyweight.TYPE, length);
        if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
        {
            return BACK_PRESSURED;
        }
        final long correlationId = nextCorrelationId++;
        request.encode(requests.buffer(), index, correlationId);
        requests.commit(index);
        serverBell.ring();
        return correlationId;
    }

    /**
     * Writes a request, waiting for room in the request ring up to the back-pressure timeout.
     *
     * @param request the request; its tensors must belong to this client
     * @return the request's correlation id
     * @throws IpcTimeoutException when the ring stays full
     */
    public long submit(final IpcRequest request)
    {
        long id = trySubmit(request);
        if (id != BACK_PRESSURED)
        {
            return id;
        }
        final IdleStrategy idle = idleStrategy();
        final long deadline = System.nanoTime() + options.backPressureTimeout().toNanos();
        while ((id = trySubmit(request)) == BACK_PRESSURED)
        {
            final long now = System.nanoTime();
            checkServer(now);
            if (now > deadline)
            {
                throw new IpcTimeoutException("the request ring of client slot " + slot + " stayed full for "
                    + options.backPressureTimeout().toMillis() + " ms: read your responses, or the server is not "
                    + "keeping up");
            }
            idle.idle();
        }
        return id;
    }

    /**
     * Returns the next response that has arrived, if any (also one that {@link #await} skipped).
     *
     * @return a response, or {@code null} when none is ready
     */
    public IpcResponse poll()
    {
        checkUsable();
        if (!early.isEmpty())
        {
            final long key = early.keySet().iterator().nextLong();
            return early.remove(key);
        }
        decoded = null;
        responses.read(decoder, 1);
        final IpcResponse response = decoded;
        decoded = null;
        if (response == null)
        {
            checkServer(System.nanoTime());
        }
        return response;
    }

    /**
     * Waits for the response to one request; responses to others that arrive meanwhile are kept for later
     * {@link #await} or {@link #poll} calls.
     *
     * @param correlationId what {@link #submit} returned
     * @param timeout       how long to wait
     * @return the response
     * @throws IpcTimeoutException     when it does not arrive in time
     * @throws IpcServerGoneException  when the server closes, dies or restarts meanwhile
     */
    public IpcResponse await(final long correlationId, final Duration timeout)
    {
        checkUsable();
        final long deadline = System.nanoTime() + timeout.toNanos();
        responseIdler.reset();
        while (true)
        {
            final IpcResponse kept = early.remove(correlationId);
            if (kept != null)
            {
                return kept;
            }
            decoded = null;
            if (responses.read(decoder, 1) > 0)
            {
                final IpcResponse response = decoded;
                decoded = null;
                if (response.correlationId() == correlationId)
                {
                    return response;
                }
                early.put(response.correlationId(), response);
                responseIdler.reset();
                continue;
            }
            final long now = System.nanoTime();
            checkServer(now);
            checkSlot();
            if (now > deadline)
            {
                throw new IpcTimeoutException("no response to request " + correlationId + " from the Ingot IPC "
                    + "server '" + region.name() + "' within " + timeout.toMillis() + " ms");
            }
            // Sleeps until the server rings after writing a response; wakes at least every 5 ms to check that the
            // server still lives.
            responseIdler.idle(0, Math.min(MAX_SLEEP_NANOS, Math.max(1_000L, deadline - now)));
        }
    }

    private void onResponseRecord(final int type, final MemorySegment buffer, final int offset, final int length)
    {
        if (type != ResponseFrameFlyweight.TYPE || length < ResponseFrameFlyweight.MESSAGE_OFFSET)
        {
            throw new IpcException("the server sent a record of type " + type + " and " + length + " bytes on the "
                + "response ring of client slot " + slot + "; this client speaks layout version "
                + HeaderDescriptor.LAYOUT_VERSION);
        }
        responseFrame.wrap(buffer, offset);
        final int messageLength = Math.min(responseFrame.messageLength(), length
            - ResponseFrameFlyweight.MESSAGE_OFFSET);
        final IpcResponse response = new IpcResponse(this, responseFrame.correlationId(),
            responseFrame.modelVersion(), responseFrame.status(),
            FrameText.get(buffer, offset + ResponseFrameFlyweight.MESSAGE_OFFSET, messageLength));
        final int count = responseFrame.outputCount();
        final IpcOutput[] outputs = new IpcOutput[count];
        long cursor = responseFrame.firstOutputOffset();
        final long end = (long)offset + length;
        for (int i = 0; i < count; i++)
        {
            outputEntry.wrap(buffer, cursor);
            final int rank = Math.min(outputEntry.rank(), IpcLimits.MAX_RANK);
            final long[] shape = new long[rank];
            for (int d = 0; d < rank; d++)
            {
                shape[d] = outputEntry.dim(d);
            }
            final long tensorOffset = outputEntry.tensorOffset();
            final long tensorLength = outputEntry.length();
            if (cursor + outputEntry.encodedLength() > end || tensorLength < 0 || tensorOffset < outputAreaStart
                || tensorOffset > outputAreaEnd || tensorLength > outputAreaEnd - tensorOffset)
            {
                throw new IpcException("the server described output " + i + " of response "
                    + responseFrame.correlationId() + " outside the output area of client slot " + slot);
            }
            outputs[i] = new IpcOutput(response, FrameText.get(buffer, outputEntry.nameOffset(),
                outputEntry.nameLength()), IpcDataType.fromCode(outputEntry.dataType()), shape, tensorOffset,
                tensorLength, memory.asSlice(tensorOffset, tensorLength));
            cursor += outputEntry.encodedLength();
        }
        response.outputs(outputs);
        decoded = response;
    }

    void release(final IpcResponse response)
    {
        if (closed || !region.memory().scope().isAlive())
        {
            return;
        }
        final IpcOutput[] outputs = response.outputArray();
        for (int first = 0; first < outputs.length; first += IpcLimits.MAX_RELEASES)
        {
            final int count = Math.min(IpcLimits.MAX_RELEASES, outputs.length - first);
            final int length = ReleaseFrameFlyweight.encodedLength(count);
            int index = requests.tryClaim(ReleaseFrameFlyweight.TYPE, length);
            if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
            {
                final IdleStrategy idle = idleStrategy();
                final long deadline = System.nanoTime() + options.backPressureTimeout().toNanos();
                while ((index = requests.tryClaim(ReleaseFrameFlyweight.TYPE, length))
                    == IpcRingWriter.INSUFFICIENT_CAPACITY)
                {
                    final long now = System.nanoTime();
                    checkServer(now);
                    if (now > deadline)
                    {
                        throw new IpcTimeoutException("could not release the outputs of response "
                            + response.correlationId() + ": the request ring of client slot " + slot
                            + " stayed full for " + options.backPressureTimeout().toMillis() + " ms");
                    }
                    idle.idle();
                }
            }
            releaseFrame.wrap(requests.buffer(), index).count(count);
            for (int i = 0; i < count; i++)
            {
                releaseFrame.entry(i, outputs[first + i].offset(), outputs[first + i].byteLength());
            }
            requests.commit(index);
            serverBell.ring();
        }
    }

    private IdleStrategy idleStrategy()
    {
        return options.busySpin() ? new BusySpinIdleStrategy()
            : new BackoffIdleStrategy(100, 5_000, 1_000, 200_000);
    }

    private void checkUsable()
    {
        if (closed)
        {
            throw new IllegalStateException("IPC client of '" + region.name() + "' (slot " + slot + ") is closed");
        }
        checkSlot();
        if (header.serverState() == HeaderDescriptor.SERVER_CLOSED)
        {
            throw gone("has closed");
        }
    }

    private void checkSlot()
    {
        final int state = entry.state();
        if (state == ClientEntryDescriptor.ACTIVE && entry.session() == session)
        {
            return;
        }
        if (state == ClientEntryDescriptor.FAULTED)
        {
            throw new IpcClientEvictedException("the Ingot IPC server '" + region.name() + "' stopped serving client "
                + "slot " + slot + ": " + entry.faultMessage());
        }
        throw new IpcClientEvictedException("client slot " + slot + " of the Ingot IPC server '" + region.name()
            + "' is no longer this client's (state " + ClientEntryDescriptor.stateName(state) + "): the server "
            + "reclaimed it; connect again");
    }

    /**
     * Watches the server: closed, dead (process gone) or silent (heartbeat still for the liveness timeout).
     */
    private void checkServer(final long now)
    {
        if (goneReason != null)
        {
            throw gone(goneReason);
        }
        if (header.serverState() == HeaderDescriptor.SERVER_CLOSED)
        {
            throw gone("has closed");
        }
        final long beat = header.serverHeartbeat();
        if (beat != lastServerHeartbeat)
        {
            lastServerHeartbeat = beat;
            lastServerHeartbeatChange = now;
        }
        else if (now - lastServerHeartbeatChange > layout.livenessTimeoutMs() * 1_000_000L)
        {
            throw gone("stopped responding: its heartbeat has not moved for " + layout.livenessTimeoutMs() + " ms");
        }
        if (now - nextServerProbe >= 0)
        {
            nextServerProbe = now + layout.heartbeatIntervalMs() * 1_000_000L;
            if (ProcessIdentity.probe(serverPid, serverStartTicks, serverPidNamespace)
                == ProcessIdentity.Liveness.GONE)
            {
                throw gone("is gone: its process " + serverPid + " no longer runs");
            }
        }
    }

    private IpcServerGoneException gone(final String what)
    {
        goneReason = what;
        final long replacement = region.replacementGeneration();
        if (replacement != 0)
        {
            return new IpcServerGoneException("the Ingot IPC server '" + region.name() + "' restarted (generation "
                + generation + " -> " + replacement + "): this connection is gone; connect again", true);
        }
        return new IpcServerGoneException("the Ingot IPC server '" + region.name() + "' (generation " + generation
            + ", pid " + serverPid + ") " + what, false);
    }

    /**
     * Leaves the slot (the server reclaims it; responses still in flight are dropped) and unmaps the region.
     * Tensors and responses of this client must not be used afterwards. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (heartbeatTask != null)
        {
            heartbeatTask.cancel(false);
        }
        final int state = entry.state();
        if ((state == ClientEntryDescriptor.ACTIVE || state == ClientEntryDescriptor.FAULTED
            || state == ClientEntryDescriptor.REQUESTED) && entry.session() == session)
        {
            entry.state(ClientEntryDescriptor.CLOSING);
        }
        closeRegion(region);
    }

    private static void closeRegion(final IpcRegion region)
    {
        // Closing a descriptor drops every POSIX lock this process holds on the file, so not during a registration.
        PROCESS_REGISTRATION.lock();
        try
        {
            region.close();
        }
        finally
        {
            PROCESS_REGISTRATION.unlock();
        }
    }

    private static void sleepMicros(final long micros)
    {
        try
        {
            Thread.sleep(Duration.ofNanos(micros * 1_000));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IpcException("interrupted while waiting for the Ingot IPC server");
        }
    }

    @Override
    public String toString()
    {
        return "IpcClient{name='" + region.name() + "', slot=" + slot + ", generation=" + generation + '}';
    }
}
