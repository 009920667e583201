package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.ipc.Utf8;
import io.ingot.tensor.DataType;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * BLS for one stub: turns the stub's BLS_REQUEST records into requests to the core that loaded the model, and their
 * responses into BLS_RESPONSE records. Inputs are views of the stub's shared memory and outputs are written by the
 * called model straight into this instance's BLS area ({@link BlsOutputAllocator}), so no tensor byte is copied on
 * the way. A response stays open, its outputs allocated, until the stub says the model dropped them (BLS_RELEASE),
 * or the stub goes away.
 *
 * <p>Threads: the instance thread parses requests and writes responses (the only writer of the ring to the stub);
 * the called models' threads complete requests, which only queues them and rings the instance's doorbell. When the
 * stub goes away ({@link #retire()}), responses still to come are closed as they arrive, and the region is unmapped
 * once none is in flight, so no called model ever writes into unmapped memory.
 */
final class BlsBridge implements StubProcess.SideWork
{
    private static final Logger LOG = System.getLogger(BlsBridge.class.getName());

    /** One BLS request of the stub. */
    private static final class Call
    {
        final long id;
        volatile InferenceResponse response;
        int status;
        String message;

        Call(final long id)
        {
            this.id = id;
        }
    }

    private final InferenceCore core;
    private final StubProcess stub;
    private final StubRegion region;
    private final String caller;
    private final ConcurrentLinkedQueue<Call> completed = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Call> unsent = new ArrayDeque<>();
    private final Map<Long, Call> delivered = new HashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();
    private volatile boolean retired;
    private boolean released;

    /**
     * @param core   the core whose models BLS requests call, or {@code null} (a model loaded outside a core)
     * @param stub   the stub
     * @param caller the calling model's name
     */
    BlsBridge(final InferenceCore core, final StubProcess stub, final String caller)
    {
        this.core = core;
        this.stub = stub;
        this.region = stub.region();
        this.caller = caller;
    }

    /**
     * Submits one BLS request (instance thread). A request the core refuses at once is answered at once.
     *
     * @param buffer the record's memory
     * @param offset the body's offset
     * @param length the body's bytes
     */
    void onRequest(final MemorySegment buffer, final long offset, final int length)
    {
        final long end = offset + length;
        need(offset, StubProtocol.BLS_REQUEST_HEADER_LENGTH, end);
        final long id = buffer.get(SharedMemory.LONG, offset);
        final long version = buffer.get(SharedMemory.LONG, offset + 8);
        final long timeoutMicros = buffer.get(SharedMemory.LONG, offset + 16);
        final int modelLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 24));
        final int idLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 26));
        final int inputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 28));
        final int outputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 30));
        long cursor = offset + StubProtocol.BLS_REQUEST_HEADER_LENGTH;
        need(cursor, IpcLimits.align8(modelLength) + (long)IpcLimits.align8(idLength), end);
        final String model = FrameText.get(buffer, cursor, modelLength);
        cursor += IpcLimits.align8(modelLength);
        final String requestId = FrameText.get(buffer, cursor, idLength);
        cursor += IpcLimits.align8(idLength);

        final Call call = new Call(id);
        final InferenceRequest request = new InferenceRequest(model).id(requestId)
            .responseAllocator(region.blsOutputs());
        for (int i = 0; i < inputCount; i++)
        {
            need(cursor, TensorEntryFlyweight.DIMS_OFFSET, end);
            entry.wrap(buffer, cursor);
            final int rank = entry.rank();
            final int nameLength = entry.nameLength();
            if (rank > IpcLimits.MAX_RANK)
            {
                throw new IpcRingCorruptException("BLS input of rank " + rank);
            }
            need(cursor, TensorEntryFlyweight.encodedLength(rank, nameLength), end);
            final long[] shape = new long[rank];
            for (int d = 0; d < rank; d++)
            {
                shape[d] = entry.dim(d);
            }
            final String name = FrameText.get(buffer, entry.nameOffset(), nameLength);
            final DataType type = DataType.fromConfigNumber(entry.dataType());
            if (type == null || !region.inDataAreas(entry.tensorOffset(), entry.length()))
            {
                throw new IpcRingCorruptException("BLS input '" + name + "' has type " + entry.dataType()
                    + " at offset " + entry.tensorOffset() + ", length " + entry.length());
            }
            request.addInput(name, type, shape, region.memory().asSlice(entry.tensorOffset(), entry.length()));
            cursor += entry.encodedLength();
        }
        for (int k = 0; k < outputCount; k++)
        {
            need(cursor, 8, end);
            final int nameLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, cursor));
            need(cursor, 8L + IpcLimits.align8(nameLength), end);
            request.requestOutput(FrameText.get(buffer, cursor + 8, nameLength));
            cursor += 8 + IpcLimits.align8(nameLength);
        }
        if (core == null)
        {
            answerNow(call, IpcStatus.UNAVAILABLE, "BLS request of python model '" + caller + "' to model '" + model
                + "': this model was loaded outside a core, so it has no other models to call");
            return;
        }
        try
        {
            request.modelVersion(version).timeoutMicros(timeoutMicros);
            inFlight.incrementAndGet();
            core.submit(request, response -> complete(call, response));
        }
        catch (final InferenceException ex)
        {
            inFlight.decrementAndGet();
            answerNow(call, status(ex.code()), ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            inFlight.decrementAndGet();
            answerNow(call, IpcStatus.INVALID_ARG, "BLS request of python model '" + caller + "' to model '" + model
                + "': " + ex.getMessage());
        }
    }

    /** A called model's thread: queue the response and wake the instance thread. */
    private void complete(final Call call, final InferenceResponse response)
    {
        call.response = response;
        completed.add(call);
        inFlight.decrementAndGet();
        if (retired)
        {
            drainRetired();
            return;
        }
        try
        {
            region.parentBell().ring();
        }
        catch (final IllegalStateException ex)
        {
            // Retired meanwhile and unmapped: drainRetired has taken or will take this call.
            drainRetired();
        }
    }

    private void answerNow(final Call call, final int status, final String message)
    {
        call.status = status;
        call.message = message;
        unsent.add(call);
    }

    @Override
    public int run()
    {
        int delivered = 0;
        while (true)
        {
            Call call = unsent.peekFirst();
            if (call == null)
            {
                call = completed.poll();
                if (call == null)
                {
                    break;
                }
                unsent.addFirst(call);
            }
            if (!write(call))
            {
                break;
            }
            unsent.removeFirst();
            delivered++;
        }
        if (delivered > 0)
        {
            stub.ringStub();
        }
        return delivered;
    }

    @Override
    public boolean pending()
    {
        return !unsent.isEmpty() || !completed.isEmpty();
    }

    /** @return false when the ring to the stub has no room now (the call stays queued). */
    private boolean write(final Call call)
    {
        final InferenceResponse response = call.response;
        if (response != null && !response.isOk())
        {
            call.status = status(response.error().code());
            call.message = response.error().getMessage();
        }
        else if (response != null && !inRegion(response))
        {
            call.status = IpcStatus.INTERNAL;
            call.message = "BLS response of model '" + response.modelName() + "' has outputs outside the calling "
                + "instance's shared memory";
            response.close();
            call.response = null;
        }
        final InferenceResponse answer = call.response;
        final boolean ok = answer != null && answer.isOk();
        final byte[] message = ok ? new byte[0] : Utf8.truncate(call.message, StubProtocol.MAX_MESSAGE_BYTES);
        final int outputs = ok ? answer.outputCount() : 0;
        final byte[][] names = new byte[outputs][];
        int length = StubProtocol.BLS_RESPONSE_HEADER_LENGTH + IpcLimits.align8(message.length);
        for (int o = 0; o < outputs; o++)
        {
            final OutputTensor output = answer.output(o);
            names[o] = output.name().getBytes(StandardCharsets.UTF_8);
            length += TensorEntryFlyweight.encodedLength(output.rank(), names[o].length);
        }
        final IpcRingWriter ring = stub.ringToStub();
        final int index = stub.tryClaim(StubProtocol.BLS_RESPONSE, length);
        if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
        {
            return false;
        }
        final MemorySegment buffer = ring.buffer();
        buffer.set(SharedMemory.LONG, index, call.id);
        buffer.set(SharedMemory.INT, index + 8, ok ? IpcStatus.OK : call.status);
        buffer.set(SharedMemory.SHORT, index + 12, (short)message.length);
        buffer.set(SharedMemory.SHORT, index + 14, (short)outputs);
        long cursor = index + StubProtocol.BLS_RESPONSE_HEADER_LENGTH;
        FrameText.put(buffer, cursor, message);
        cursor += IpcLimits.align8(message.length);
        for (int o = 0; o < outputs; o++)
        {
            final OutputTensor output = answer.output(o);
            entry.wrap(buffer, cursor).rank(output.rank()).dataType(output.dataType().configNumber())
                .tensorOffset(region.offsetOf(output.data())).length(output.data().byteSize());
            for (int d = 0; d < output.rank(); d++)
            {
                entry.dim(d, output.dim(d));
            }
            entry.name(names[o]);
            cursor += entry.encodedLength();
        }
        ring.commit(index);
        if (ok)
        {
            delivered.put(call.id, call);
        }
        else if (answer != null)
        {
            answer.close();
        }
        return true;
    }

    private boolean inRegion(final InferenceResponse response)
    {
        for (int o = 0; o < response.outputCount(); o++)
        {
            if (region.offsetOf(response.output(o).data()) < 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Closes the responses the stub no longer references (instance thread).
     *
     * @param buffer the record's memory
     * @param offset the body's offset
     * @param length the body's bytes
     */
    void onRelease(final MemorySegment buffer, final long offset, final int length)
    {
        need(offset, 8, offset + length);
        final int count = buffer.get(SharedMemory.INT, offset);
        need(offset + 8, 8L * count, offset + length);
        for (int i = 0; i < count; i++)
        {
            final Call call = delivered.remove(buffer.get(SharedMemory.LONG, offset + 8 + 8L * i));
            if (call != null)
            {
                call.response.close();
            }
        }
    }

    /**
     * The stub is gone or stopping (instance thread): closes every response it held, and every one still to come as
     * it arrives; unmaps the region once no BLS request is in flight.
     */
    void retire()
    {
        retired = true;
        for (final Call call : delivered.values())
        {
            call.response.close();
        }
        delivered.clear();
        for (final Call call : unsent)
        {
            if (call.response != null)
            {
                call.response.close();
            }
        }
        unsent.clear();
        drainRetired();
    }

    private synchronized void drainRetired()
    {
        Call call;
        while ((call = completed.poll()) != null)
        {
            call.response.close();
        }
        if (!released && inFlight.get() == 0)
        {
            released = true;
            try
            {
                stub.release();
            }
            catch (final IllegalStateException ex)
            {
                LOG.log(Level.WARNING, stub.label() + ": unmapping its shared memory failed: " + ex.getMessage());
            }
        }
    }

    private static void need(final long cursor, final long bytes, final long end)
    {
        if (bytes < 0 || cursor + bytes > end)
        {
            throw new IpcRingCorruptException("BLS record ends at " + end + " but a field needs " + bytes
                + " bytes at " + cursor);
        }
    }

    /** @return an {@link ErrorCode}'s status number in frames. */
    static int status(final ErrorCode code)
    {
        return code.ordinal() + 1;
    }
}
