package io.ingot.server.ipc;

import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.ResponseFrameFlyweight;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.ipc.Utf8;

import java.lang.foreign.MemorySegment;

/**
 * Writes one client's RESPONSE frames into its response ring (docs/ipc.md, "RESPONSE"), then wakes the client. Outputs
 * are described where the core wrote them when that is the client's output area, and copied into it once otherwise.
 * A response that does not fit, or a ring found corrupt (the slot is faulted), is not written: the caller drops it.
 * Thread-safe: the core's threads write one response at a time under this writer's lock, without allocating.
 */
final class ResponseWriter
{
    private static final byte[] EMPTY = new byte[0];

    private final ClientSession client;
    private final IpcServer server;
    private final MemorySegment memory;
    private final IpcRingWriter responses;
    private final OutputArea outputs;
    private final ClientWaker waker;
    private final Object responseLock = new Object();
    private final ResponseFrameFlyweight responseFrame = new ResponseFrameFlyweight();
    private final TensorEntryFlyweight outputEntry = new TensorEntryFlyweight();
    private final long[] resolvedOffsets = new long[IpcLimits.MAX_OUTPUTS];

    /**
     * @param client    the slot, faulted when its ring is found corrupt
     * @param server    the server, for its counters and its names' bytes
     * @param memory    the whole region
     * @param responses the slot's response ring
     * @param outputs   the slot's output area
     * @param waker     how to wake the slot's client
     */
    ResponseWriter(final ClientSession client, final IpcServer server, final MemorySegment memory,
        final IpcRingWriter responses, final OutputArea outputs, final ClientWaker waker)
    {
        this.client = client;
        this.server = server;
        this.memory = memory;
        this.responses = responses;
        this.outputs = outputs;
        this.waker = waker;
    }

    /**
     * @return bytes free in the response ring now
     * @throws IpcRingCorruptException when the ring's positions are impossible
     */
    long freeBytes()
    {
        return responses.freeBytes();
    }

    /**
     * Writes the RESPONSE frame of a finished request. Outputs the core placed outside this client's output area
     * are copied into it first.
     *
     * @param correlationId the request's correlation id
     * @param context       the request's context, which allocates the copies' space
     * @param response      the core's response
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
                if (data.scope().equals(memory.scope()) && outputs.contains(offset, data.byteSize()))
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
        waker.wake();
        server.countResponse();
        return true;
    }

    /**
     * Writes an error RESPONSE frame.
     *
     * @param correlationId the request's correlation id
     * @param modelVersion  the version that answered, -1 for none
     * @param status        an {@link IpcStatus} code
     * @param message       the error message, truncated to {@link IpcLimits#MAX_MESSAGE_LENGTH} bytes
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
        waker.wake();
        server.countResponse();
        return true;
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
            client.fault(ClientEntryDescriptor.FAULT_RING_CORRUPT, "response ring corrupt: " + ex.getMessage());
            return -1;
        }
    }
}
