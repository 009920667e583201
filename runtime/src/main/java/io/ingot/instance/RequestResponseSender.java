package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.RequestTrace;
import io.ingot.backend.ResponseSender;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.scheduler.PendingRequest;
import io.ingot.tensor.DataType;
import io.ingot.time.NanoClock;

import java.lang.foreign.MemorySegment;

/**
 * The {@link ResponseSender} of one row of a decoupled model's batch, reused for every batch of its instance. It
 * builds each response in the request's own memory and hands it to the model's {@link ResponseDelivery} (flagged
 * final or not) as it is sent, then forgets the request once its final is out: from that moment
 * the caller may resubmit it, so what the statistics and the trace need is captured when the row is bound.
 * Not thread-safe: one sending thread at a time, as the SPI says.
 */
final class RequestResponseSender implements ResponseSender
{
    private final HostedModel model;
    private final ResponseDelivery delivery;
    private final NanoClock clock;
    private final ResponseSenders outputs;
    private PendingRequest pending;
    private InferenceResponse building;
    /** Bit {@code o} set when output {@code o} was allocated for the response being built. */
    private long allocatedOutputs;
    private boolean complete;
    private long computeStartNs;
    private long inputEndNs;
    /** Captured at bind: the request may be reused as soon as its final is delivered. */
    long acceptedNs;
    int batchSize;
    RequestTrace trace;

    RequestResponseSender(final HostedModel model, final ResponseSenders outputs)
    {
        this.model = model;
        this.delivery = model.delivery();
        this.clock = model.clock();
        this.outputs = outputs;
    }

    /** Binds the sender to a row of the next batch; {@code request} is {@code null} for a padding row. */
    void bind(final PendingRequest request, final long computeStart, final long inputEnd)
    {
        pending = request;
        building = null;
        allocatedOutputs = 0;
        complete = request == null;
        computeStartNs = computeStart;
        inputEndNs = inputEnd;
        acceptedNs = request == null ? 0 : request.acceptedNs;
        batchSize = request == null ? 0 : request.batchSize;
        trace = request == null ? null : request.request.trace();
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape)
    {
        final int index = outputs.index(name);
        return allocate(index, shape, OutputSizes.fixedByteSize(model.name(), name, outputs.type(index), shape));
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        return allocate(outputs.index(name), shape, OutputSizes.checkedByteSize(name, byteSize));
    }

    private MemorySegment allocate(final int index, final long[] shape, final long byteSize)
    {
        requireOpen();
        if ((allocatedOutputs & (1L << index)) != 0)
        {
            throw new IllegalArgumentException("output '" + outputs.name(index) + "' of model '" + model.name()
                + "' was already allocated for this response; send it before allocating the next one");
        }
        allocatedOutputs |= 1L << index;
        if (pending == null || (pending.requestedOutputs & (1L << index)) == 0)
        {
            return outputs.scratch(index, byteSize);  // nobody asked for it: written, then discarded
        }
        if (building == null)
        {
            building = model.openResponse(pending);
        }
        final ResponseAllocator allocator = model.allocatorFor(pending);
        final String name = outputs.name(index);
        final DataType type = outputs.type(index);
        final MemorySegment memory = allocator.allocate(name, type, shape, byteSize);
        if (memory == null || memory.byteSize() < byteSize)
        {
            throw new IllegalStateException("response allocator returned "
                + (memory == null ? "null" : memory.byteSize() + " bytes") + " for output '" + name + "' of model '"
                + model.name() + "', which needs " + byteSize + " bytes");
        }
        final MemorySegment exact = memory.byteSize() == byteSize ? memory : memory.asSlice(0, byteSize);
        ResponseAssembly.addOutput(building, name, type, shape, shape.length, exact, memory, allocator);
        return exact;
    }

    @Override
    public void send(final boolean last)
    {
        requireOpen();
        allocatedOutputs = 0;
        if (pending == null)
        {
            complete = last;
            return;
        }
        final InferenceResponse response = building != null ? building : model.openResponse(pending);
        building = null;
        if (last)
        {
            deliverFinal(response);
        }
        else
        {
            delivery.deliver(pending, response, false);
        }
    }

    @Override
    public void sendFinal()
    {
        requireOpen();
        discardUnsent();
        if (pending == null)
        {
            complete = true;
            return;
        }
        deliverFinal(null);
    }

    @Override
    public void refuse(final String message)
    {
        requireOpen();
        if (pending == null)
        {
            complete = true;
            return;
        }
        failIfOpen(ErrorCode.INVALID_ARG, message, null);
    }

    @Override
    public boolean isComplete()
    {
        return complete;
    }

    @Override
    public boolean isCancelled()
    {
        return complete || pending.isCancelled() || model.isStopping();
    }

    /**
     * Ends the request with an error as its final response, unless its final already went out.
     *
     * @param code    the error's category
     * @param message the error
     * @param cause   the underlying failure, or {@code null}
     */
    void failIfOpen(final ErrorCode code, final String message, final Throwable cause)
    {
        if (complete)
        {
            return;
        }
        discardUnsent();
        final InferenceResponse response = model.openResponse(pending);
        ResponseAssembly.fail(response, new InferenceException(code, message, cause));
        deliverFinal(response);
    }

    /** After a successful execution: completes the request with a flags-only final if the engine did not. */
    void completeIfOpen()
    {
        if (complete)
        {
            return;
        }
        final String id = ModelScheduler.idOf(pending.request);
        if (pending.isCancelled())
        {
            failIfOpen(ErrorCode.CANCELLED, "[request id: " + id + "] Request for model '" + model.name()
                + "' was cancelled", null);
        }
        else if (model.isStopping())
        {
            failIfOpen(ErrorCode.UNAVAILABLE, "[request id: " + id + "] Server is stopping, scheduler for model has "
                + "stopped accepting new inference requests", null);
        }
        else
        {
            discardUnsent();
            deliverFinal(null);
        }
    }

    /** @return whether the row answers a request (false for a sequence batch's padding row) */
    boolean answersRequest()
    {
        return batchSize > 0;
    }

    private void deliverFinal(final InferenceResponse response)
    {
        complete = true;
        final PendingRequest request = pending;
        pending = null;
        if (trace != null)
        {
            final long now = clock.nanoTime();
            trace.computed(computeStartNs, inputEndNs, now, now);
        }
        delivery.deliver(request, response, true);
    }

    private void discardUnsent()
    {
        allocatedOutputs = 0;
        if (building != null)
        {
            building.close();  // releases its outputs' memory and recycles it
            building = null;
        }
    }

    private void requireOpen()
    {
        if (complete)
        {
            throw new IllegalStateException("model '" + model.name() + "': the request's final response was "
                + "already sent; nothing more may be sent for it");
        }
    }
}
