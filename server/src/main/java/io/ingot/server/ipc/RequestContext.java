package io.ingot.server.ipc;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseListener;
import io.ingot.ipc.SlabAllocator;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One in-flight request of one IPC client, preallocated and reused: the {@link InferenceRequest} handed to the
 * core, the {@link ResponseAllocator} that places its outputs in the client's output area, and the
 * {@link ResponseListener} that writes its RESPONSE frame.
 *
 * <p>Output space belongs to the request until its response frame is written; from then on it belongs to the
 * client, which frees it with a RELEASE frame, so the core's later {@link #release} calls are ignored. When the
 * response cannot be written (the client left), the space is freed here.
 */
final class RequestContext implements ResponseListener, ResponseAllocator
{
    private final ClientSession client;
    private final InferenceRequest request = new InferenceRequest("ipc");

    private long correlationId;
    private long session;
    private long[] allocationOffsets = new long[8];
    private long[] allocationLengths = new long[8];
    private int allocationCount;
    private boolean handedOver;

    RequestContext(final ClientSession client)
    {
        this.client = client;
    }

    InferenceRequest request()
    {
        return request;
    }

    long correlationId()
    {
        return correlationId;
    }

    synchronized void begin(final long correlation, final long clientSession)
    {
        this.correlationId = correlation;
        this.session = clientSession;
        this.allocationCount = 0;
        this.handedOver = false;
    }

    @Override
    public synchronized MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        if (!client.accepts(session))
        {
            throw new InferenceException(ErrorCode.UNAVAILABLE, "IPC client slot " + client.slot()
                + " disconnected; its request " + correlationId + " is dropped");
        }
        final long offset = client.outputs().allocate(byteSize);
        if (offset == SlabAllocator.FAILED)
        {
            throw new InferenceException(ErrorCode.UNAVAILABLE, "output '" + outputName + "' needs " + byteSize
                + " bytes, but the output area of IPC client slot " + client.slot() + " has "
                + client.outputs().freeBytes() + " of " + client.outputs().capacity() + " bytes free: close (release) "
                + "earlier responses");
        }
        record(offset, byteSize);
        return client.memory().asSlice(offset, byteSize);
    }

    @Override
    public synchronized void release(final MemorySegment memory)
    {
        if (handedOver)
        {
            return;
        }
        final long offset = memory.address() - client.memory().address();
        for (int i = 0; i < allocationCount; i++)
        {
            if (allocationOffsets[i] == offset)
            {
                client.outputs().free(offset, allocationLengths[i]);
                allocationCount--;
                allocationOffsets[i] = allocationOffsets[allocationCount];
                allocationLengths[i] = allocationLengths[allocationCount];
                return;
            }
        }
    }

    /**
     * Allocates space for an output the core placed elsewhere, to copy it into the client's output area.
     *
     * @param name       the output, for the message
     * @param byteLength its size
     * @return the file offset of the space
     * @throws InferenceException UNAVAILABLE when the output area is full
     */
    synchronized long allocateCopy(final String name, final long byteLength)
    {
        final MemorySegment space = allocate(name, null, null, byteLength);
        return space.address() - client.memory().address();
    }

    @Override
    public void onResponse(final InferenceResponse response)
    {
        boolean written = false;
        try
        {
            written = client.accepts(session) && client.writeResponse(correlationId, this, response);
        }
        catch (final RuntimeException ex)
        {
            client.server().log(System.Logger.Level.WARNING, "writing the response to request " + correlationId
                + " of IPC client slot " + client.slot() + " failed", ex);
        }
        finally
        {
            if (!written)
            {
                client.server().countDroppedResponse();
            }
            synchronized (this)
            {
                handedOver = written;
            }
            response.close();
            synchronized (this)
            {
                if (!written)
                {
                    for (int i = 0; i < allocationCount; i++)
                    {
                        client.outputs().free(allocationOffsets[i], allocationLengths[i]);
                    }
                }
                allocationCount = 0;
            }
            client.releaseContext(this);
        }
    }

    private void record(final long offset, final long length)
    {
        if (allocationCount == allocationOffsets.length)
        {
            allocationOffsets = Arrays.copyOf(allocationOffsets, allocationCount * 2);
            allocationLengths = Arrays.copyOf(allocationLengths, allocationCount * 2);
        }
        allocationOffsets[allocationCount] = offset;
        allocationLengths[allocationCount] = length;
        allocationCount++;
    }
}
