package io.ingot.python;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.ingot.api.DecoupledModelException;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * BLS for one stub: turns the stub's BLS_REQUEST records into requests to the core that loaded the model (with their
 * id, parameters, correlation ID and sequence flags, timeout and version), and their responses into BLS_RESPONSE
 * records: one for a plain {@code exec()}, every response of the called model, the last flagged final, for
 * {@code exec(decoupled=True)}. Inputs are views of the stub's shared memory and outputs are written by the called
 * model straight into this instance's BLS area ({@link BlsOutputAllocator}), so no tensor byte is copied on the way.
 * A response stays open, its outputs allocated, until the stub says the model dropped them (RELEASE), or the stub
 * goes away.
 *
 * <p>Threads: the thread holding the stub's role parses requests and writes responses (the only writer of the ring
 * to the stub); the called models' threads complete requests, which only queues them and rings the server's doorbell.
 * When the stub goes away ({@link #retire()}), responses still to come are closed as they arrive, and the region is
 * unmapped once none is in flight, so no called model ever writes into unmapped memory.
 */
final class BlsBridge implements StubProcess.SideWork
{
    private static final Logger LOG = System.getLogger(BlsBridge.class.getName());

    /** One response to a BLS request of the stub (a decoupled request has several). */
    private static final class Answer
    {
        final long id;
        final long releaseKey;
        final InferenceResponse response;
        final boolean last;
        int status;
        String message;

        Answer(final long id, final long releaseKey, final InferenceResponse response, final boolean last)
        {
            this.id = id;
            this.releaseKey = releaseKey;
            this.response = response;
            this.last = last;
        }
    }

    private final InferenceCore core;
    private final StubProcess stub;
    private final StubRegion region;
    private final String caller;
    private final ConcurrentLinkedQueue<Answer> completed = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Answer> unsent = new ArrayDeque<>();
    private final Map<Long, Answer> delivered = new HashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong releaseKeys = new AtomicLong();
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
     * Submits one BLS request (role holder). A request the core refuses at once is answered at once.
     *
     * @param buffer the record's memory
     * @param offset the body's offset
     * @param length the body's bytes
     */
    void onRequest(final MemorySegment buffer, final long offset, final int length)
    {
        final long end = offset + length;
        ResponseOutputs.need(offset, StubProtocol.BLS_REQUEST_HEADER_LENGTH, end);
        final long id = buffer.get(SharedMemory.LONG, offset);
        final long version = buffer.get(SharedMemory.LONG, offset + 8);
        final long timeoutMicros = buffer.get(SharedMemory.LONG, offset + 16);
        final long correlationId = buffer.get(SharedMemory.LONG, offset + 24);
        final int flags = buffer.get(SharedMemory.INT, offset + 32);
        final int modelLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 36));
        final int idLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 38));
        final int inputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 40));
        final int outputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 42));
        final int parametersLength = buffer.get(SharedMemory.INT, offset + 44);
        final int keyLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 48));
        long cursor = offset + StubProtocol.BLS_REQUEST_HEADER_LENGTH;
        ResponseOutputs.need(cursor, (long)IpcLimits.align8(modelLength) + IpcLimits.align8(idLength)
            + IpcLimits.align8(parametersLength) + IpcLimits.align8(keyLength), end);
        final String model = FrameText.get(buffer, cursor, modelLength);
        cursor += IpcLimits.align8(modelLength);
        final String requestId = FrameText.get(buffer, cursor, idLength);
        cursor += IpcLimits.align8(idLength);
        final String parameters = FrameText.get(buffer, cursor, parametersLength);
        cursor += IpcLimits.align8(parametersLength);
        final String correlationKey = FrameText.get(buffer, cursor, keyLength);
        cursor += IpcLimits.align8(keyLength);

        final boolean decoupled = (flags & StubProtocol.BLS_DECOUPLED) != 0;
        final InferenceRequest request = new InferenceRequest(model).id(requestId)
            .responseAllocator(region.blsOutputs());
        cursor = readInputs(request, buffer, cursor, end, inputCount);
        for (int k = 0; k < outputCount; k++)
        {
            ResponseOutputs.need(cursor, 8, end);
            final int nameLength = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, cursor));
            ResponseOutputs.need(cursor, 8L + IpcLimits.align8(nameLength), end);
            request.requestOutput(FrameText.get(buffer, cursor + 8, nameLength));
            cursor += 8 + IpcLimits.align8(nameLength);
        }
        if (core == null)
        {
            answerNow(id, IpcStatus.UNAVAILABLE, "BLS request of python model '" + caller + "' to model '" + model
                + "': this model was loaded outside a core, so it has no other models to call");
            return;
        }
        try
        {
            applyParameters(request, parameters);
            final boolean start = (flags & StubProtocol.SEQUENCE_START) != 0;
            final boolean stop = (flags & StubProtocol.SEQUENCE_END) != 0;
            if ((flags & StubProtocol.CORRELATION_STRING) != 0)
            {
                request.sequence(correlationKey, start, stop);
            }
            else if (correlationId != 0 || start || stop)
            {
                request.sequence(correlationId, start, stop);
            }
            request.modelVersion(version).timeoutMicros(timeoutMicros);
            inFlight.incrementAndGet();
            if (decoupled)
            {
                core.submit(request, (response, last) -> complete(id, response, last));
            }
            else
            {
                core.submit(request, response -> complete(id, response, true));
            }
        }
        catch (final DecoupledModelException ex)
        {
            inFlight.decrementAndGet();
            // Triton's request_executor.cc text.
            answerNow(id, IpcStatus.UNSUPPORTED, "Model " + model + " is using the decoupled. The current BLS "
                + "request call doesn't support models using the decoupled transaction policy. Please use "
                + "'decoupled=True' argument to the 'exec' or 'async_exec' calls for decoupled models.'");
        }
        catch (final InferenceException ex)
        {
            inFlight.decrementAndGet();
            answerNow(id, status(ex.code()), ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            inFlight.decrementAndGet();
            answerNow(id, IpcStatus.INVALID_ARG, "BLS request of python model '" + caller + "' to model '" + model
                + "': " + ex.getMessage());
        }
    }

    private long readInputs(final InferenceRequest request, final MemorySegment buffer, final long from,
        final long end, final int inputCount)
    {
        long cursor = from;
        for (int i = 0; i < inputCount; i++)
        {
            ResponseOutputs.need(cursor, TensorEntryFlyweight.DIMS_OFFSET, end);
            entry.wrap(buffer, cursor);
            final int rank = entry.rank();
            final int nameLength = entry.nameLength();
            if (rank > IpcLimits.MAX_RANK)
            {
                throw new IpcRingCorruptException("BLS input of rank " + rank);
            }
            ResponseOutputs.need(cursor, TensorEntryFlyweight.encodedLength(rank, nameLength), end);
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
        return cursor;
    }

    /** The BLS request's {@code parameters}, a JSON object the stub checked (str keys, bool/int/str values). */
    private static void applyParameters(final InferenceRequest request, final String json)
    {
        if (json.isEmpty() || json.equals("{}"))
        {
            return;
        }
        for (final Map.Entry<String, JsonElement> parameter : JsonParser.parseString(json).getAsJsonObject()
            .entrySet())
        {
            final var value = parameter.getValue().getAsJsonPrimitive();
            final Object typed = value.isBoolean() ? (Object)value.getAsBoolean()
                : value.isString() ? value.getAsString() : (Object)value.getAsLong();
            request.parameter(parameter.getKey(), typed);
        }
    }

    /** A called model's thread: queue the response and wake the role holder. */
    private void complete(final long id, final InferenceResponse response, final boolean last)
    {
        completed.add(new Answer(id, releaseKeys.incrementAndGet(), response, last));
        if (last)
        {
            inFlight.decrementAndGet();
        }
        if (retired)
        {
            drainRetired();
            return;
        }
        try
        {
            stub.wakeParent();
        }
        catch (final IllegalStateException ex)
        {
            // Retired meanwhile and unmapped: drainRetired has taken or will take this answer.
            drainRetired();
        }
    }

    private void answerNow(final long id, final int status, final String message)
    {
        final Answer answer = new Answer(id, 0, null, true);
        answer.status = status;
        answer.message = message;
        unsent.add(answer);
    }

    @Override
    public int run()
    {
        int written = 0;
        while (true)
        {
            Answer answer = unsent.peekFirst();
            if (answer == null)
            {
                answer = completed.poll();
                if (answer == null)
                {
                    break;
                }
                unsent.addFirst(answer);
            }
            if (!write(answer))
            {
                break;
            }
            unsent.removeFirst();
            written++;
        }
        if (written > 0)
        {
            stub.ringStub();
        }
        return written;
    }

    @Override
    public boolean pending()
    {
        return !unsent.isEmpty() || !completed.isEmpty();
    }

    /** @return false when the ring to the stub has no room now (the answer stays queued) */
    private boolean write(final Answer answer)
    {
        InferenceResponse response = answer.response;
        if (response != null && !response.isOk())
        {
            answer.status = status(response.error().code());
            answer.message = response.error().getMessage();
        }
        else if (response != null && !inRegion(response))
        {
            answer.status = IpcStatus.INTERNAL;
            answer.message = "BLS response of model '" + response.modelName() + "' has outputs outside the calling "
                + "instance's shared memory";
            response.close();
            response = null;
        }
        final boolean ok = response != null && response.isOk();
        final boolean flagsOnly = response == null && answer.message == null;
        final byte[] message = ok || flagsOnly ? FrameText.NO_BYTES
            : Utf8.truncate(answer.message, StubProtocol.MAX_MESSAGE_BYTES);
        final int outputs = ok ? response.outputCount() : 0;
        final byte[][] names = new byte[outputs][];
        int length = StubProtocol.BLS_RESPONSE_HEADER_LENGTH + IpcLimits.align8(message.length);
        for (int o = 0; o < outputs; o++)
        {
            final OutputTensor output = response.output(o);
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
        buffer.set(SharedMemory.LONG, index, answer.id);
        buffer.set(SharedMemory.LONG, index + 8, ok ? answer.releaseKey : 0);
        buffer.set(SharedMemory.INT, index + 16, ok || flagsOnly ? IpcStatus.OK : answer.status);
        buffer.set(SharedMemory.SHORT, index + 20, (short)message.length);
        buffer.set(SharedMemory.SHORT, index + 22, (short)outputs);
        buffer.set(SharedMemory.INT, index + 24, answer.last ? StubProtocol.BLS_FINAL : 0);
        buffer.set(SharedMemory.INT, index + 28, 0);
        long cursor = index + StubProtocol.BLS_RESPONSE_HEADER_LENGTH;
        FrameText.put(buffer, cursor, message);
        cursor += IpcLimits.align8(message.length);
        for (int o = 0; o < outputs; o++)
        {
            final OutputTensor output = response.output(o);
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
            delivered.put(answer.releaseKey, new Answer(answer.id, answer.releaseKey, response, answer.last));
        }
        else if (response != null)
        {
            response.close();
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
     * Closes a response the stub no longer references (RELEASE, role holder); an unknown key is ignored.
     *
     * @param releaseKey the key its BLS_RESPONSE carried
     */
    void release(final long releaseKey)
    {
        final Answer answer = delivered.remove(releaseKey);
        if (answer != null)
        {
            answer.response.close();
        }
    }

    /**
     * The stub is gone or stopping (role holder): closes every response it held, and every one still to come as it
     * arrives; unmaps the region once no BLS request is in flight.
     */
    void retire()
    {
        retired = true;
        for (final Answer answer : delivered.values())
        {
            answer.response.close();
        }
        delivered.clear();
        for (final Answer answer : unsent)
        {
            if (answer.response != null)
            {
                answer.response.close();
            }
        }
        unsent.clear();
        drainRetired();
    }

    private synchronized void drainRetired()
    {
        Answer answer;
        while ((answer = completed.poll()) != null)
        {
            if (answer.response != null)
            {
                answer.response.close();
            }
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

    /** @return an {@link ErrorCode}'s status number in frames. */
    static int status(final ErrorCode code)
    {
        return code.ordinal() + 1;
    }
}
