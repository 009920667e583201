package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.RequestTrace;
import io.ingot.backend.ResponseSender;
import io.ingot.scheduler.RefusalMessages;
import io.ingot.scheduler.PendingRequest;
import io.ingot.tensor.DataType;
import io.ingot.time.NanoClock;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@link ResponseSender} of one row of a batch whose engine answers through senders: a decoupled model's, or an
 * engine's that responds per request. The instance reuses one per row for every batch; {@link #keepOpen} moves a
 * decoupled request into a new sender of its own, which the engine ends later. It builds each response in the
 * request's own memory and hands it to the model's {@link ResponseDelivery} (flagged final or
 * not) as it is sent, then forgets the request once its final is out: from that moment the caller may resubmit it, so
 * what the statistics and the trace need is captured when the row is bound.
 *
 * <p>Not thread-safe: one sending thread at a time, as the SPI says. A kept-open sender may pass from thread to
 * thread (the engine orders the hand-overs); {@link #complete} is volatile so that {@link ResponseSenders#failOpen}
 * sees a final sent on another thread.
 */
final class RequestResponseSender implements ResponseSender
{
    private final HostedModel model;
    private final ResponseDelivery delivery;
    private final NanoClock clock;
    private final ResponseSenders outputs;
    /** True for a sender {@link #keepOpen} made: it lives past its batch and keeps no instance-thread scratch. */
    private final boolean keptOpen;
    private PendingRequest pending;
    private InferenceResponse building;
    /** Bit {@code o} set when output {@code o} was allocated for the response being built. */
    private long allocatedOutputs;
    private volatile boolean complete;
    private long computeStartNs;
    private long inputEndNs;
    /** Captured at bind: the request may be reused as soon as its final is delivered. */
    long acceptedNs;
    int batchSize;
    RequestTrace trace;
    /** Whether the request's final was an error (the statistics count it failed). */
    boolean failed;

    RequestResponseSender(final HostedModel model, final ResponseSenders outputs)
    {
        this(model, outputs, false);
    }

    private RequestResponseSender(final HostedModel model, final ResponseSenders outputs, final boolean keptOpen)
    {
        this.model = model;
        this.delivery = model.delivery();
        this.clock = model.clock();
        this.outputs = outputs;
        this.keptOpen = keptOpen;
    }

    /** Binds the sender to a row of the next batch; {@code request} is {@code null} for a padding row. */
    void bind(final PendingRequest request, final long computeStart, final long inputEnd)
    {
        pending = request;
        building = null;
        allocatedOutputs = 0;
        complete = request == null;
        failed = false;
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
        final DataType type = outputs.type(index);
        return allocate(index, type, shape, OutputSizes.fixedByteSize(model.name(), name, type, shape));
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        final int index = outputs.index(name);
        return allocate(index, outputs.type(index), shape, OutputSizes.checkedByteSize(name, byteSize));
    }

    @Override
    public MemorySegment allocateOutput(final String name, final DataType type, final long[] shape,
        final long byteSize)
    {
        final int index = outputs.index(name);
        if (type != DataType.BYTES)
        {
            final long fixed = OutputSizes.fixedByteSize(model.name(), name, type, shape);
            if (fixed != byteSize)
            {
                throw new IllegalArgumentException("output '" + name + "' of model '" + model.name() + "': "
                    + byteSize + " bytes for a " + type.wireName() + " tensor that needs " + fixed);
            }
        }
        return allocate(index, type, shape, OutputSizes.checkedByteSize(name, byteSize));
    }

    private MemorySegment allocate(final int index, final DataType type, final long[] shape, final long byteSize)
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
            // Nobody asked for it: written, then discarded.
            return keptOpen ? Arena.ofAuto().allocate(Math.max(1, byteSize)).asSlice(0, byteSize)
                : outputs.scratch(index, byteSize);
        }
        if (building == null)
        {
            building = model.openResponse(pending);
        }
        final ResponseAllocator allocator = model.allocatorFor(pending);
        final String name = outputs.name(index);
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
        if (!last && !outputs.decoupled())
        {
            throw new IllegalStateException("model '" + model.name() + "' is not decoupled: each request gets "
                + "exactly one response, sent with send(true)");
        }
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
        if (!outputs.decoupled())
        {
            failIfOpen(ErrorCode.INTERNAL, noResponse(), null);
            return;
        }
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
        sendError(ErrorCode.INVALID_ARG, message, true);
    }

    @Override
    public void sendError(final ErrorCode code, final String message, final boolean last)
    {
        requireOpen();
        if (last)
        {
            if (pending == null)
            {
                discardUnsent();
                complete = true;
                return;
            }
            failIfOpen(code, message, null);
            return;
        }
        if (!outputs.decoupled())
        {
            throw new IllegalStateException("model '" + model.name() + "' is not decoupled: an error is the "
                + "request's one response, sent with last = true");
        }
        discardUnsent();
        if (pending != null)
        {
            final InferenceResponse response = model.openResponse(pending);
            ResponseAssembly.fail(response, new InferenceException(code, message));
            delivery.deliver(pending, response, false);
        }
    }

    @Override
    public ResponseSender keepOpen()
    {
        requireOpen();
        if (!outputs.decoupled())
        {
            throw new IllegalStateException("model '" + model.name() + "' is not decoupled: its requests end "
                + "when execute returns");
        }
        final RequestResponseSender open = new RequestResponseSender(model, outputs, true);
        open.pending = pending;
        open.building = building;
        open.allocatedOutputs = allocatedOutputs;
        open.computeStartNs = computeStartNs;
        open.inputEndNs = inputEndNs;
        open.acceptedNs = acceptedNs;
        open.batchSize = batchSize;
        open.trace = trace;
        open.complete = pending == null;
        // This row counts as answered for its batch; the open sender alone may touch the request from now on.
        pending = null;
        building = null;
        allocatedOutputs = 0;
        complete = true;
        if (!open.complete)
        {
            outputs.opened(open);
        }
        return open;
    }

    @Override
    public boolean isComplete()
    {
        return complete;
    }

    @Override
    public boolean isCancelled()
    {
        return complete || RequestDeadline.passed(pending, clock) || model.isStopping();
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
        failed = true;
        deliverFinal(response);
    }

    /**
     * After a successful execution: completes the request if the engine did not, with a flags-only final (a decoupled
     * model) or an error that says the engine gave no response (a one-response model).
     */
    void completeIfOpen()
    {
        if (complete)
        {
            return;
        }
        if (pending.isCancelled())
        {
            failIfOpen(ErrorCode.CANCELLED, RefusalMessages.cancelled(pending.request, model.name()), null);
        }
        else if (model.isStopping())
        {
            failIfOpen(ErrorCode.UNAVAILABLE, RefusalMessages.stopping(pending.request), null);
        }
        else if (!outputs.decoupled())
        {
            failIfOpen(ErrorCode.INTERNAL, noResponse(), null);
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

    private String noResponse()
    {
        return "model '" + model.name() + "' ended request '" + RefusalMessages.idOf(pending.request)
            + "' without a response";
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
        if (keptOpen)
        {
            outputs.closed(this);
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
