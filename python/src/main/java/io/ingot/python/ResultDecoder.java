package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.backend.Batch;
import io.ingot.backend.ResponseSender;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.SharedMemory;

import java.lang.foreign.MemorySegment;
import java.util.function.LongConsumer;

/**
 * Reads the stub's EXECUTE_RESULT and answers the batch's requests through their response senders, each on its own
 * as Triton's Python backend answers them: a request {@code execute} answered with an error gets that error (with
 * the code the model gave, {@code TritonError.INVALID_ARG} and the others), the others their outputs, whatever their
 * neighbours got. A decoupled model's result carries no responses (it sends them with RESPONSE records). Framing
 * errors raise {@link IpcRingCorruptException}, which stops the stub. Used by the thread holding the stub's role.
 */
final class ResultDecoder
{
    private final String model;

    /**
     * @param model the model, for messages
     */
    ResultDecoder(final String model)
    {
        this.model = model;
    }

    /**
     * @param batch     the batch
     * @param requests  its requests, as encoded
     * @param decoupled whether the model is decoupled
     * @param region    the instance's region, where the outputs lie
     * @param outputs   the output copier
     * @param released  receives the ids of the batches whose inputs the model no longer references
     * @param buffer    the record's memory
     * @param offset    the body's offset
     * @param length    the body's bytes
     * @return {@code null}, or the message of an {@code execute} that failed as a whole (raised, or returned what
     *     Triton's Python backend refuses), which the caller gives every request still open
     */
    String decode(final Batch batch, final int requests, final boolean decoupled, final StubRegion region,
        final ResponseOutputs outputs, final LongConsumer released, final MemorySegment buffer, final long offset,
        final int length)
    {
        final long end = offset + length;
        ResponseOutputs.need(offset, StubProtocol.RESULT_HEADER_LENGTH, end);
        final int status = buffer.get(SharedMemory.INT, offset);
        final int count = buffer.get(SharedMemory.INT, offset + 4);
        final int messageLength = buffer.get(SharedMemory.INT, offset + 8);
        final int releasedCount = buffer.get(SharedMemory.INT, offset + 12);
        final long releases = offset + StubProtocol.RESULT_HEADER_LENGTH;
        ResponseOutputs.need(releases, 8L * releasedCount, end);
        final long cursor = releases + 8L * releasedCount;
        try
        {
            return decodeResponses(batch, requests, decoupled, region, outputs, buffer, cursor, end, status, count,
                messageLength);
        }
        finally
        {
            // After the responses: an output the model passed through from its input lies in the block released.
            for (int i = 0; i < releasedCount; i++)
            {
                released.accept(buffer.get(SharedMemory.LONG, releases + 8L * i));
            }
        }
    }

    private String decodeResponses(final Batch batch, final int requests, final boolean decoupled,
        final StubRegion region, final ResponseOutputs outputs, final MemorySegment buffer, final long from,
        final long end, final int status, final int count, final int messageLength)
    {
        long cursor = from;
        if (status != 0)
        {
            ResponseOutputs.need(cursor, messageLength, end);
            return FrameText.get(buffer, cursor, messageLength);
        }
        if (count != (decoupled ? 0 : requests))
        {
            throw new IpcRingCorruptException("the stub answered " + count + " responses to " + requests
                + " requests of a " + (decoupled ? "decoupled " : "") + "model");
        }
        for (int r = 0; r < count; r++)
        {
            ResponseOutputs.need(cursor, StubProtocol.RESPONSE_HEADER_LENGTH, end);
            final int responseStatus = buffer.get(SharedMemory.INT, cursor);
            final int outputCount = Short.toUnsignedInt(buffer.get(SharedMemory.SHORT, cursor + 4));
            final int textLength = buffer.get(SharedMemory.INT, cursor + 8);
            cursor += StubProtocol.RESPONSE_HEADER_LENGTH;
            ResponseOutputs.need(cursor, textLength, end);
            final ResponseSender sender = batch.responseSender(r);
            if (responseStatus != 0)
            {
                final String text = FrameText.get(buffer, cursor, textLength);
                cursor += IpcLimits.align8(textLength);
                cursor = outputs.copy(null, region, buffer, cursor, end, outputCount);
                if (!sender.isComplete())
                {
                    sender.sendError(errorCode(responseStatus), text, true);
                }
                continue;
            }
            cursor += IpcLimits.align8(textLength);
            if (sender.isComplete())
            {
                cursor = outputs.copy(null, region, buffer, cursor, end, outputCount);  // a padding row
                continue;
            }
            try
            {
                cursor = outputs.copy(sender, region, buffer, cursor, end, outputCount);
                sender.send(true);
            }
            catch (final IllegalArgumentException | IllegalStateException refused)
            {
                // The response's memory could not be had (the caller's allocator, a shared-memory region too small):
                // this request fails, its neighbours are answered.
                sender.sendError(ErrorCode.INTERNAL, "python model '" + model + "': request " + r + " of the batch "
                    + "could not take its response: " + refused.getMessage(), true);
                cursor = outputs.copy(null, region, buffer, cursor, end, outputCount);  // from the first entry again
            }
        }
        return null;
    }

    /**
     * @param status an IPC status number (1 and up: {@link ErrorCode}'s order)
     * @return its category ({@code UNKNOWN} for a number this version does not know)
     */
    static ErrorCode errorCode(final int status)
    {
        final ErrorCode[] codes = ErrorCode.values();
        return status >= 1 && status <= codes.length ? codes[status - 1] : ErrorCode.UNKNOWN;
    }
}
