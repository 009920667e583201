package io.ingot.server.ipc;

import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.OutputNameFlyweight;
import io.ingot.ipc.ProcessIdentity;
import io.ingot.ipc.ResponseFrameFlyweight;
import io.ingot.ipc.TensorEntryFlyweight;

import java.lang.foreign.MemorySegment;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A client written against the protocol alone (docs/ipc.md), without {@code IpcClient}: it can write any frame,
 * valid or not, into its request ring. Tests use it as a misbehaving or hostile client.
 */
final class RawClient implements AutoCloseable
{
    record Tensor(String name, IpcDataType type, long[] shape, long offset, long length)
    {
    }

    record Response(long correlationId, int status, String message, List<Output> outputs)
    {
    }

    record Output(String name, int dataType, long[] shape, long offset, long length)
    {
    }

    final IpcRegion region;
    final IpcLayout layout;
    final int slot;
    final ClientEntryFlyweight entry = new ClientEntryFlyweight();
    final IpcRingWriter requests;
    final IpcRingReader responses;
    final long slabStart;
    final long slabEnd;
    private final Thread heartbeat;
    private volatile boolean closed;

    private RawClient(final IpcRegion region, final int slot)
    {
        this.region = region;
        this.layout = region.layout();
        this.slot = slot;
        entry.wrap(region.memory(), layout.clientEntryOffset(slot));
        requests = new IpcRingWriter(region.memory().asSlice(layout.requestRingOffset(slot),
            layout.requestRingLength()));
        responses = new IpcRingReader(region.memory().asSlice(layout.responseRingOffset(slot),
            layout.responseRingLength()));
        slabStart = layout.slabOffset(slot);
        slabEnd = slabStart + layout.slabLength();
        heartbeat = Thread.ofPlatform().daemon().start(() ->
        {
            long beat = 0;
            while (!closed)
            {
                entry.heartbeat(++beat);
                try
                {
                    Thread.sleep(layout.heartbeatIntervalMs());
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        });
    }

    static RawClient connect(final String name) throws Exception
    {
        final IpcRegion region = IpcRegion.open(name);
        final ClientEntryFlyweight candidate = new ClientEntryFlyweight();
        int slot = -1;
        try (FileLock ignored = region.lock(HeaderDescriptor.REGISTRATION_LOCK_OFFSET))
        {
            for (int i = 0; i < region.layout().maxClients() && slot < 0; i++)
            {
                candidate.wrap(region.memory(), region.layout().clientEntryOffset(i));
                if (candidate.state() == ClientEntryDescriptor.FREE)
                {
                    candidate.client(0, ProcessIdentity.current()).state(ClientEntryDescriptor.REQUESTED);
                    slot = i;
                }
            }
        }
        if (slot < 0)
        {
            throw new IllegalStateException("no free slot");
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (candidate.state() != ClientEntryDescriptor.ACTIVE)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("slot " + slot + " not activated");
            }
            Thread.sleep(1);
        }
        return new RawClient(region, slot);
    }

    MemorySegment memory()
    {
        return region.memory();
    }

    /** Writes a record with an arbitrary body; false when the ring is full. */
    boolean write(final int type, final byte[] body)
    {
        return requests.write(type, MemorySegment.ofArray(body), 0, body.length);
    }

    /** Encodes an INFER frame into a byte array. */
    static byte[] infer(final long correlationId, final String model, final List<Tensor> inputs,
        final List<String> outputs)
    {
        final MemorySegment scratch = MemorySegment.ofArray(new long[2048]);
        final InferFrameFlyweight frame = new InferFrameFlyweight().wrap(scratch, 0)
            .correlationId(correlationId).modelVersion(-1).priority(0).timeoutMicros(0)
            .inputCount(inputs.size()).outputCount(outputs.size()).flags(0)
            .strings(model.getBytes(StandardCharsets.UTF_8), new byte[0]);
        long cursor = frame.firstInputOffset();
        final TensorEntryFlyweight entry = new TensorEntryFlyweight();
        for (final Tensor input : inputs)
        {
            entry.wrap(scratch, cursor).rank(input.shape().length).dataType(input.type().code())
                .tensorOffset(input.offset()).length(input.length());
            for (int d = 0; d < input.shape().length; d++)
            {
                entry.dim(d, input.shape()[d]);
            }
            entry.name(input.name().getBytes(StandardCharsets.UTF_8));
            cursor += entry.encodedLength();
        }
        final OutputNameFlyweight output = new OutputNameFlyweight();
        for (final String name : outputs)
        {
            output.wrap(scratch, cursor).name(name.getBytes(StandardCharsets.UTF_8));
            cursor += output.encodedLength();
        }
        return scratch.asSlice(0, cursor).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Reads every response that has arrived. */
    List<Response> drain()
    {
        final List<Response> received = new ArrayList<>();
        final ResponseFrameFlyweight frame = new ResponseFrameFlyweight();
        final TensorEntryFlyweight entry = new TensorEntryFlyweight();
        while (responses.read((type, buffer, offset, length) ->
        {
            frame.wrap(buffer, offset);
            final List<Output> outputs = new ArrayList<>();
            long cursor = frame.firstOutputOffset();
            for (int i = 0; i < frame.outputCount(); i++)
            {
                entry.wrap(buffer, cursor);
                final long[] shape = new long[entry.rank()];
                for (int d = 0; d < shape.length; d++)
                {
                    shape[d] = entry.dim(d);
                }
                outputs.add(new Output(FrameText.get(buffer, entry.nameOffset(), entry.nameLength()),
                    entry.dataType(), shape, entry.tensorOffset(), entry.length()));
                cursor += entry.encodedLength();
            }
            received.add(new Response(frame.correlationId(), frame.status(), frame.message(), outputs));
        }, 64) > 0)
        {
            // Keep reading until the ring is empty.
        }
        return received;
    }

    /** Waits until {@code count} responses arrived in total. */
    List<Response> await(final int count, final long seconds) throws InterruptedException
    {
        final List<Response> received = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (received.size() < count && System.nanoTime() < deadline)
        {
            received.addAll(drain());
            Thread.sleep(1);
        }
        return received;
    }

    @Override
    public void close() throws InterruptedException
    {
        closed = true;
        heartbeat.interrupt();
        heartbeat.join();
        if (entry.state() == ClientEntryDescriptor.ACTIVE || entry.state() == ClientEntryDescriptor.FAULTED)
        {
            entry.state(ClientEntryDescriptor.CLOSING);
        }
        region.close();
    }
}
