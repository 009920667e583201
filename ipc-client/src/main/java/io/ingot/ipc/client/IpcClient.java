package io.ingot.ipc.client;

import io.ingot.ipc.Doorbell;
import io.ingot.ipc.IpcCapacityException;
import io.ingot.ipc.IpcClientEvictedException;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcServerGoneException;
import io.ingot.ipc.IpcTimeoutException;
import io.ingot.ipc.SlabAllocator;
import org.agrona.concurrent.IdleStrategy;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;

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
 *
 * <p>The connection's parts, each with one job: {@link ClientSlot} (the entry in the client table, its registration,
 * heartbeat and leaving), {@link ServerWatch} (the server's liveness), {@link RequestSender} (INFER and RELEASE frames
 * into the request ring), {@link ResponseReceiver} with its {@link ResponseDecoder} (responses out of the response
 * ring) and a {@link SlabAllocator} over the input area; this class ties them to the public API.
 */
public final class IpcClient implements AutoCloseable
{
    /** {@link #trySubmit} result when the request ring has no room now. */
    public static final long BACK_PRESSURED = RequestSender.BACK_PRESSURED;

    private final IpcRegion region;
    private final IpcLayout layout;
    private final MemorySegment memory;
    private final IpcClientOptions options;
    private final ClientSlot slot;
    private final ServerWatch server;
    private final RequestSender sender;
    private final ResponseReceiver receiver;
    private final SlabAllocator inputs;
    private volatile boolean closed;

    private IpcClient(final IpcRegion region, final IpcClientOptions options, final ClientSlot slot,
        final ServerWatch server)
    {
        this.region = region;
        this.layout = region.layout();
        this.memory = region.memory();
        this.options = options;
        this.slot = slot;
        this.server = server;
        final int index = slot.index();
        this.sender = new RequestSender(new IpcRingWriter(memory.asSlice(layout.requestRingOffset(index),
            layout.requestRingLength())), Doorbell.server(memory), server, index, options);
        final ResponseDecoder decoder = new ResponseDecoder(this, memory, index, layout.outputAreaOffset(index),
            layout.slabOffset(index) + layout.slabLength());
        this.receiver = new ResponseReceiver(region.name(), new IpcRingReader(memory.asSlice(
            layout.responseRingOffset(index), layout.responseRingLength())), decoder,
            Doorbell.client(memory, layout.clientEntryOffset(index)), options.busySpin(), server, slot);
        this.inputs = new SlabAllocator(layout.slabOffset(index), layout.slabInputLength());
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
            final ClientSlot slot = ClientSlot.register(region);
            final ServerWatch server = new ServerWatch(region);
            slot.awaitActivation(options.connectTimeout(), server);
            return new IpcClient(region, options, slot, server);
        }
        catch (final RuntimeException ex)
        {
            ClientSlot.closeRegion(region);
            throw ex;
        }
    }

    /**
     * Diagnostics of the wake-up path (docs/ipc.md, "Wake-ups").
     *
     * @return how many of this client's waits for a response slept on its doorbell until the server rang it
     */
    public long doorbellWakeUps()
    {
        return receiver.doorbellWakeUps();
    }

    /** @return the IPC name. */
    public String name()
    {
        return region.name();
    }

    /** @return this client's slot in the client table. */
    public int slot()
    {
        return slot.index();
    }

    /** @return the generation of the server this client is connected to. */
    public long generation()
    {
        return server.generation();
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
                + "slot " + slot.index() + " (" + inputs.freeBytes() + " of " + inputs.capacity() + " bytes free, "
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
        return sender.trySend(request);
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
        final IdleStrategy idle = sender.backPressureIdler();
        final long deadline = System.nanoTime() + options.backPressureTimeout().toNanos();
        while ((id = trySubmit(request)) == BACK_PRESSURED)
        {
            final long now = System.nanoTime();
            server.check(now);
            if (now > deadline)
            {
                throw new IpcTimeoutException("the request ring of client slot " + slot.index() + " stayed full for "
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
        return receiver.poll();
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
        return receiver.await(correlationId, timeout);
    }

    void release(final IpcResponse response)
    {
        if (closed || !region.memory().scope().isAlive())
        {
            return;
        }
        sender.release(response);
    }

    private void checkUsable()
    {
        if (closed)
        {
            throw new IllegalStateException("IPC client of '" + region.name() + "' (slot " + slot.index()
                + ") is closed");
        }
        slot.checkOwned();
        server.checkOpen();
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
        slot.leave();
        ClientSlot.closeRegion(region);
    }

    @Override
    public String toString()
    {
        return "IpcClient{name='" + region.name() + "', slot=" + slot.index() + ", generation=" + server.generation()
            + '}';
    }
}
