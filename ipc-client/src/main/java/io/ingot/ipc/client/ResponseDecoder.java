package io.ingot.ipc.client;

import io.ingot.ipc.FrameText;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.ResponseFrameFlyweight;
import io.ingot.ipc.TensorEntryFlyweight;

import java.lang.foreign.MemorySegment;

/**
 * Turns a RESPONSE frame of the response ring into an {@link IpcResponse} (docs/ipc.md, "RESPONSE"): status, message
 * and outputs, each checked to lie inside this client's output area before it becomes a view of the region. A
 * handler of {@link IpcRingReader#read}: the response of the last record read is {@link #take() taken} after the
 * read. Used by the client's one thread.
 */
final class ResponseDecoder implements IpcRingReader.Handler
{
    private final IpcClient owner;
    private final MemorySegment memory;
    private final int slot;
    private final long outputAreaStart;
    private final long outputAreaEnd;
    private final ResponseFrameFlyweight responseFrame = new ResponseFrameFlyweight();
    private final TensorEntryFlyweight outputEntry = new TensorEntryFlyweight();
    private IpcResponse decoded;

    /**
     * @param owner           the client whose responses these are (their outputs are released through it)
     * @param memory          the whole region
     * @param slot            the client's slot, for messages
     * @param outputAreaStart file offset of the client's output area
     * @param outputAreaEnd   file offset just after it
     */
    ResponseDecoder(final IpcClient owner, final MemorySegment memory, final int slot, final long outputAreaStart,
        final long outputAreaEnd)
    {
        this.owner = owner;
        this.memory = memory;
        this.slot = slot;
        this.outputAreaStart = outputAreaStart;
        this.outputAreaEnd = outputAreaEnd;
    }

    /** @return the response of the record read last, or {@code null} when none was; forgets it. */
    IpcResponse take()
    {
        final IpcResponse response = decoded;
        decoded = null;
        return response;
    }

    @Override
    public void onRecord(final int type, final MemorySegment buffer, final int offset, final int length)
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
        final IpcResponse response = new IpcResponse(owner, responseFrame.correlationId(),
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
}
