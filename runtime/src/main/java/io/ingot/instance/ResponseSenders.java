package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;
import io.ingot.scheduler.FormedBatch;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The response senders of an instance whose engine answers through senders (a decoupled model's, or one that
 * responds per request), one per row of its batches, with what they share: the output table, scratch memory for
 * outputs no request asked for, and the senders {@link RequestResponseSender#keepOpen kept open} past their batch.
 * Grows to the largest batch seen, then allocates nothing per batch. Not thread-safe but for the set of open senders
 * (a concurrent set: they end on the engine's threads): its instance thread binds and completes; the engine sends
 * during {@code execute}.
 */
final class ResponseSenders
{
    private final HostedModel model;
    private final PinnedAllocator allocator;
    private final boolean decoupled;
    private final Set<RequestResponseSender> open = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> outputIndex = new HashMap<>();
    private final String[] names;
    private final DataType[] types;
    private final StagingBuffer[] scratch;
    private RequestResponseSender[] senders = new RequestResponseSender[0];
    private int count;

    ResponseSenders(final HostedModel model, final PinnedAllocator allocator, final boolean decoupled)
    {
        this.model = model;
        this.allocator = allocator;
        this.decoupled = decoupled;
        final ModelConfig config = model.config();
        names = new String[config.getOutputCount()];
        types = new DataType[names.length];
        scratch = new StagingBuffer[names.length];
        for (int o = 0; o < names.length; o++)
        {
            names[o] = config.getOutput(o).getName();
            types[o] = DataType.fromConfigNumber(config.getOutput(o).getDataTypeValue());
            outputIndex.put(names[o], o);
        }
    }

    /** Binds one sender to each row of the batch about to execute. */
    void bind(final FormedBatch batch, final long computeStart, final long inputEnd)
    {
        count = batch.count();
        if (senders.length < count)
        {
            final RequestResponseSender[] grown = new RequestResponseSender[count];
            System.arraycopy(senders, 0, grown, 0, senders.length);
            for (int r = senders.length; r < count; r++)
            {
                grown[r] = new RequestResponseSender(model, this);
            }
            senders = grown;
        }
        for (int r = 0; r < count; r++)
        {
            senders[r].bind(batch.get(r), computeStart, inputEnd);
        }
    }

    /** @return the number of rows bound */
    int count()
    {
        return count;
    }

    /**
     * @param request a row index of the bound batch
     * @return its sender
     */
    RequestResponseSender get(final int request)
    {
        if (request < 0 || request >= count)
        {
            throw new IndexOutOfBoundsException("request " + request + " of a batch of " + count + " requests");
        }
        return senders[request];
    }

    int index(final String name)
    {
        final Integer index = outputIndex.get(name);
        if (index == null)
        {
            throw new IllegalArgumentException("model '" + model.name() + "' has no output '" + name + "'");
        }
        return index;
    }

    String name(final int index)
    {
        return names[index];
    }

    DataType type(final int index)
    {
        return types[index];
    }

    /** @return discarded memory for an output no request asked for */
    MemorySegment scratch(final int index, final long byteSize)
    {
        if (scratch[index] == null)
        {
            scratch[index] = new StagingBuffer(allocator);
        }
        return scratch[index].slice(byteSize);
    }

    /** @return whether the model is decoupled (zero or many responses per request), else one response each */
    boolean decoupled()
    {
        return decoupled;
    }

    /** A sender kept open past its batch, until its final. */
    void opened(final RequestResponseSender sender)
    {
        open.add(sender);
    }

    /** A kept-open sender sent its final. */
    void closed(final RequestResponseSender sender)
    {
        open.remove(sender);
    }

    /**
     * Ends every request still kept open with an UNAVAILABLE error: after the engine closed, so that no engine thread
     * uses those senders any more.
     *
     * @param why what stopped, for the message
     */
    void failOpen(final String why)
    {
        for (final RequestResponseSender sender : open.toArray(new RequestResponseSender[0]))
        {
            sender.failIfOpen(ErrorCode.UNAVAILABLE, why, null);
        }
        open.clear();
    }

    void close()
    {
        for (final StagingBuffer buffer : scratch)
        {
            if (buffer != null)
            {
                buffer.close();
            }
        }
    }
}
