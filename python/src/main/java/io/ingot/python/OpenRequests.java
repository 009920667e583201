package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.backend.Batch;
import io.ingot.backend.ResponseSender;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.SharedMemory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests a stub may still answer, by the handle each got in its EXECUTE frame: those of the batch executing
 * now (answered through the batch's senders), and a decoupled model's requests that outlive their batch (Triton's
 * response factory outlives the request's release), kept open until their final. It turns the stub's RESPONSE records
 * into responses, each streamed to the caller as the model sends it, and answers the model's {@code is_cancelled()}.
 * Not thread-safe: used by the thread holding the stub's role ({@link StubSession}).
 */
final class OpenRequests
{
    /** A request kept open past its batch. */
    private record Kept(ResponseSender sender, String id)
    {
    }

    private final String model;
    private final StubRegion region;
    private final ResponseOutputs outputs;
    private final Map<Long, Kept> kept = new HashMap<>();
    private long nextHandle = 1;
    private Batch batch;
    private String[] batchIds = new String[0];
    private long base;
    private int count;

    /**
     * @param model   the model, for messages
     * @param region  the stub's region, where sent outputs lie
     * @param outputs the output copier
     */
    OpenRequests(final String model, final StubRegion region, final ResponseOutputs outputs)
    {
        this.model = model;
        this.region = region;
        this.outputs = outputs;
    }

    /**
     * Gives the batch about to execute its handles.
     *
     * @param executing the batch
     * @param requests  its requests
     * @return the first request's handle; request r has that plus r
     */
    long beginBatch(final Batch executing, final int requests)
    {
        batch = executing;
        base = nextHandle;
        count = requests;
        nextHandle += requests;
        if (batchIds.length < requests)
        {
            batchIds = new String[Math.max(requests, batchIds.length * 2)];
        }
        for (int r = 0; r < requests; r++)
        {
            batchIds[r] = executing.request(r).id();
        }
        return base;
    }

    /** After a decoupled model's successful {@code execute}: its requests still open stay open past the batch. */
    void keepOpenAfterBatch()
    {
        for (int r = 0; r < count; r++)
        {
            final ResponseSender sender = batch.responseSender(r);
            if (!sender.isComplete())
            {
                kept.put(base + r, new Kept(sender.keepOpen(), batchIds[r]));
            }
        }
    }

    /** The batch has ended: its handles answer nothing more unless they were kept open. */
    void endBatch()
    {
        batch = null;
        count = 0;
    }

    /**
     * Handles one RESPONSE record: the model sent a response (or only the final flag, or dropped its sender) for one
     * of its requests.
     *
     * @return the reply the model's {@code send()} waits for
     */
    Replies.Reply onResponse(final MemorySegment buffer, final long offset, final int length)
    {
        final long end = offset + length;
        ResponseOutputs.need(offset, StubProtocol.SEND_HEADER_LENGTH, end);
        final long callId = buffer.get(SharedMemory.LONG, offset);
        final long handle = buffer.get(SharedMemory.LONG, offset + 8);
        final int flags = buffer.get(SharedMemory.INT, offset + 16);
        final int status = buffer.get(SharedMemory.INT, offset + 20);
        final int outputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, offset + 24));
        final int messageLength = buffer.get(SharedMemory.INT, offset + 28);
        long cursor = offset + StubProtocol.SEND_HEADER_LENGTH;
        ResponseOutputs.need(cursor, messageLength, end);
        final String message = FrameText.get(buffer, cursor, messageLength);
        cursor += IpcLimits.align8(messageLength);
        final boolean last = (flags & StubProtocol.SEND_FINAL) != 0;
        final ResponseSender sender = sender(handle);
        if (sender == null || sender.isComplete())
        {
            outputs.copy(null, region, buffer, cursor, end, outputCount);
            return Replies.Reply.error(callId, IpcStatus.INVALID_ARG, "Unable to send response. Response sender has "
                + "been closed. (python model '" + model + "': the request has ended)");
        }
        try
        {
            if ((flags & StubProtocol.SEND_DROPPED) != 0)
            {
                sender.sendError(ErrorCode.INTERNAL, "python model '" + model + "' dropped the response sender of "
                    + "request '" + idOf(handle) + "' without sending TRITONSERVER_RESPONSE_COMPLETE_FINAL", true);
            }
            else if (status != IpcStatus.OK)
            {
                outputs.copy(null, region, buffer, cursor, end, outputCount);
                sender.sendError(ResultDecoder.errorCode(status), message, last);
            }
            else if ((flags & StubProtocol.SEND_HAS_RESPONSE) != 0)
            {
                outputs.copy(sender, region, buffer, cursor, end, outputCount);
                sender.send(last);
            }
            else if (last)
            {
                sender.sendFinal();
            }
            return Replies.Reply.ok(callId, 0, 0);
        }
        catch (final IllegalArgumentException | IllegalStateException refused)
        {
            return Replies.Reply.error(callId, IpcStatus.INTERNAL, "python model '" + model + "': the response to "
                + "request '" + idOf(handle) + "' could not be sent: " + refused.getMessage());
        }
        finally
        {
            if (sender.isComplete())
            {
                kept.remove(handle);
            }
        }
    }

    /**
     * @param handle a request's handle
     * @return whether its caller cancelled it or its timeout passed; false for a request that has ended
     */
    boolean isCancelled(final long handle)
    {
        if (batch != null && handle >= base && handle < base + count)
        {
            return batch.request((int)(handle - base)).isCancelled();
        }
        final Kept open = kept.get(handle);
        return open != null && open.sender().isCancelled();
    }

    /**
     * Ends every request still open with an error (the stub died or is being replaced, or its model stops).
     *
     * @param code    the error's category
     * @param message why
     */
    void failAll(final ErrorCode code, final String message)
    {
        final List<Kept> open = new ArrayList<>(kept.values());
        kept.clear();
        for (final Kept request : open)
        {
            if (!request.sender().isComplete())
            {
                request.sender().sendError(code, message, true);
            }
        }
    }

    /** @return the number of requests kept open past their batch */
    int keptOpen()
    {
        return kept.size();
    }

    private ResponseSender sender(final long handle)
    {
        if (batch != null && handle >= base && handle < base + count)
        {
            return batch.responseSender((int)(handle - base));
        }
        final Kept open = kept.get(handle);
        return open == null ? null : open.sender();
    }

    private String idOf(final long handle)
    {
        if (batch != null && handle >= base && handle < base + count)
        {
            return batchIds[(int)(handle - base)];
        }
        final Kept open = kept.get(handle);
        return open == null ? "" : open.id();
    }
}
