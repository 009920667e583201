package io.ingot.instance;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.RequestTrace;
import io.ingot.backend.Engine;
import io.ingot.device.PinnedAllocator;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.StatsCell;
import io.ingot.stats.SucceededRequests;
import io.ingot.time.NanoClock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One model instance's execution: it assembles a batch's inputs into its staging, runs its engine, opens each
 * request's response and gives it each requested output — a slice of the batch's output where the engine wrote it in
 * response memory ({@link SharedOutput}), else copied once into memory from the request's allocator —, records the
 * batch in its statistics cell, and then hands the batch's responses, once, to the model's {@link ResponseDelivery}
 * — from its own thread. Opening responses and choosing allocators needs nothing of the core but what the instance was
 * built with ({@link HostedModel}). The engine SPI is synchronous, so one staging set suffices: the next batch is
 * assembled only after the engine returned. Its thread's duty cycle (taking batches) is {@link InstanceAgent}'s. Not
 * thread-safe: one thread at a time, its instance thread or a caller that borrowed the idle instance
 * ({@link InstanceAgent}, ordered by its seat's run token).
 *
 * <p>A decoupled model's batch runs through {@link DecoupledExecution} instead, zero or many responses per request,
 * and so does the batch of an engine that {@link Engine#respondsPerRequest() responds per request} (one each).
 *
 * <p>An engine failure fails exactly its batch: every request of it gets an INTERNAL error naming the model and the
 * cause, and the instance serves the next batch.
 */
public final class ModelInstance implements AutoCloseable
{
    private static final Logger LOG = System.getLogger(ModelInstance.class.getName());

    private final HostedModel model;
    private final ResponseDelivery delivery;
    private final NanoClock clock;
    private final String name;
    private final Engine engine;
    private final StatsCell stats;
    /** The successful requests of the batch being recorded, summed (reused). */
    private final SucceededRequests succeeded = new SucceededRequests();
    /** Output bytes the batch being answered copied from staging into responses, for {@link HostCopies}. */
    private long outputBytesCopied;
    private final boolean batchDimension;
    private final AssembledBatch staging;
    /** How a decoupled model's batch runs, or {@code null}: the one-response path below is the only check. */
    private final DecoupledExecution decoupled;

    /**
     * @param model     the model version, as its instances see it
     * @param index     the instance's index among the model's instances
     * @param name      instance name, for logs and thread names
     * @param engine    the instance's engine
     * @param allocator staging memory source
     */
    public ModelInstance(final HostedModel model, final int index, final String name, final Engine engine,
        final PinnedAllocator allocator)
    {
        this.model = model;
        this.delivery = model.delivery();
        this.clock = model.clock();
        this.name = name;
        this.engine = engine;
        this.stats = model.stats().cell(index);
        this.batchDimension = model.config().getMaxBatchSize() > 0;
        this.staging = new AssembledBatch(model, allocator, engine.acceptsHeapInputs(), engine.respondsPerRequest());
        this.decoupled = staging.senders() == null ? null
            : new DecoupledExecution(model, name, engine, stats, staging);
    }

    /** @return the instance's name. */
    public String name()
    {
        return name;
    }

    /**
     * Closes the engine (after the last batch), ends the requests it kept open and did not end (UNAVAILABLE), and
     * releases the staging memory.
     */
    @Override
    public void close()
    {
        try
        {
            engine.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "closing engine of instance " + name + " failed", ex);
        }
        if (staging.senders() != null)
        {
            staging.senders().failOpen("model '" + model.name() + "' version " + model.version() + " instance "
                + name + " stopped before it ended the request");
        }
        staging.close();
    }

    /**
     * Executes one batch and answers each of its requests: one response per request, each handed once to the
     * model's delivery after the whole batch is in the statistics (a caller that reads them after its response sees
     * its batch).
     *
     * @param payload the batch
     * @return how long it took, from the start of the assembly until its responses were written (ns; a decoupled
     *     model's: until its engine returned): the timestamps its statistics take anyway, so that a caller that times
     *     batches reads no clock of its own
     */
    public long execute(final FormedBatch payload)
    {
        if (decoupled != null)
        {
            final long start = clock.nanoTime();
            decoupled.execute(payload);
            return clock.nanoTime() - start;
        }
        final long computeStart = clock.nanoTime();
        long inputEnd = computeStart;
        long outputStart = computeStart;
        Throwable failure = null;
        try
        {
            staging.assemble(payload);
            inputEnd = clock.nanoTime();
            engine.execute(staging);
            staging.captureStates();
            outputStart = clock.nanoTime();
        }
        catch (final Throwable ex)
        {
            failure = ex;
            if (inputEnd == computeStart)
            {
                inputEnd = clock.nanoTime();
            }
            outputStart = clock.nanoTime();
        }
        final InferenceResponse[] responses = responses(payload.count());
        final boolean[] failed = failedFlags(payload.count());
        if (failure == null)
        {
            writeResponses(payload, responses, failed);
        }
        else
        {
            failResponses(payload, failure, responses);
        }
        final long end = clock.nanoTime();
        record(payload, failure, failed, computeStart, inputEnd, outputStart, end);
        delivery.deliverFinals(payload, responses);
        return end - computeStart;
    }

    /** After a successful execution: each request's response with its requested outputs, or the error writing one. */
    private void writeResponses(final FormedBatch payload, final InferenceResponse[] responses, final boolean[] failed)
    {
        try
        {
            writeEachResponse(payload, responses, failed);
        }
        finally
        {
            // Each response holds the shared outputs it got a slice of; the instance's own holds end here.
            staging.releaseSharedOutputs();
            if (outputBytesCopied != 0)
            {
                HostCopies.output(outputBytesCopied);  // once per batch: the counter is process-wide
                outputBytesCopied = 0;
            }
        }
    }

    private void writeEachResponse(final FormedBatch payload, final InferenceResponse[] responses,
        final boolean[] failed)
    {
        int row = 0;
        for (int r = 0; r < payload.count(); r++)
        {
            final PendingRequest pending = payload.get(r);
            failed[r] = false;
            if (pending == null)
            {
                // A sequence batch's padding row: it holds a row of the batch and answers nobody.
                responses[r] = null;
                row++;
                continue;
            }
            final InferenceResponse response = model.openResponse(pending);
            responses[r] = response;
            try
            {
                scatter(staging, pending, row, response);
            }
            catch (final RuntimeException ex)
            {
                failed[r] = true;
                ResponseAssembly.fail(response, ex instanceof InferenceException ie ? ie
                    : new InferenceException(ErrorCode.INTERNAL, "model '" + model.name()
                        + "': writing the outputs of request '" + pending.request.id() + "' failed: "
                        + describe(ex), ex));
            }
            row += pending.batchSize;
        }
    }

    /** After the engine failed: every request of the batch gets an INTERNAL error naming the model and the cause. */
    private void failResponses(final FormedBatch payload, final Throwable failure, final InferenceResponse[] responses)
    {
        releaseDirectOutputs(staging);
        // The engine failed after allocating: the batch's shared outputs go back to the pool, each exactly once.
        staging.releaseSharedOutputs();
        final String message = "model '" + model.name() + "' version " + model.version() + " instance "
            + name + " failed to execute a batch of " + payload.batchSize() + ": " + describe(failure);
        for (int r = 0; r < payload.count(); r++)
        {
            final PendingRequest pending = payload.get(r);
            responses[r] = null;
            if (pending != null)
            {
                responses[r] = model.openResponse(pending);
                ResponseAssembly.fail(responses[r], new InferenceException(ErrorCode.INTERNAL, message, failure));
            }
        }
    }

    /**
     * Records the batch and each of its requests in the instance's statistics cell, as one update; the successful
     * requests summed first and added once.
     */
    private void record(final FormedBatch payload, final Throwable failure, final boolean[] failed,
        final long computeStart, final long inputEnd, final long outputStart, final long end)
    {
        final long inputNs = inputEnd - computeStart;
        final long inferNs = outputStart - inputEnd;
        final long outputNs = end - outputStart;
        stats.beginUpdate();
        stats.batchExecuted(payload.batchSize(), inputNs, inferNs, outputNs, clock.currentTimeMillis());
        succeeded.clear();
        for (int r = 0; r < payload.count(); r++)
        {
            final PendingRequest pending = payload.get(r);
            if (pending == null)
            {
                continue;
            }
            if (failure != null)
            {
                stats.requestFailed(end - pending.acceptedNs, FailureReason.BACKEND);
                continue;
            }
            if (failed[r])
            {
                stats.requestFailed(end - pending.acceptedNs, FailureReason.OTHER);
            }
            else
            {
                succeeded.add(pending.batchSize, end - pending.acceptedNs, computeStart - pending.acceptedNs);
            }
            final RequestTrace trace = pending.request.trace();
            if (trace != null)
            {
                trace.computed(computeStart, inputEnd, outputStart, end);
            }
        }
        stats.requestsSucceeded(succeeded, inputNs, inferNs, outputNs);
        stats.endUpdate();
    }

    private void scatter(final AssembledBatch batch, final PendingRequest pending, final int row,
        final InferenceResponse response)
    {
        final AssembledBatch.OutputSlot[] outputs = batch.outputs;
        final int batchSize = batch.payload.batchSize();
        final ResponseAllocator allocator = model.allocatorFor(pending);
        for (int o = 0; o < outputs.length; o++)
        {
            if ((pending.requestedOutputs & (1L << o)) == 0)
            {
                continue;
            }
            final AssembledBatch.OutputSlot slot = outputs[o];
            if (!slot.allocated)
            {
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + model.name()
                    + "' did not produce requested output '" + slot.name + "'");
            }
            if (slot.direct)
            {
                ResponseAssembly.addOutput(response, slot.name, slot.dataType, slot.shape, slot.rank, slot.data,
                    slot.allocation, allocator);
                continue;
            }
            final long start;
            final long length;
            if (!batchDimension)
            {
                start = 0;
                length = slot.data.byteSize();
            }
            else if (slot.dataType == DataType.BYTES)
            {
                long perRow = 1;
                for (int d = 1; d < slot.rank; d++)
                {
                    perRow *= slot.shape[d];
                }
                start = bytesElementOffset(slot.data, (long)row * perRow);
                length = bytesElementOffset(slot.data, (long)(row + pending.batchSize) * perRow) - start;
            }
            else
            {
                final long rowBytes = slot.data.byteSize() / batchSize;
                start = rowBytes * row;
                length = rowBytes * pending.batchSize;
            }
            final long savedBatch = slot.shape.length > 0 ? slot.shape[0] : 0;
            if (batchDimension)
            {
                slot.shape[0] = pending.batchSize;
            }
            try
            {
                if (slot.shared != null)
                {
                    // The engine wrote the batch in response memory: this response's rows are a view of it.
                    final MemorySegment rows = slot.shared.slice(start, length);
                    slot.shared.retain();
                    ResponseAssembly.addOutput(response, slot.name, slot.dataType, slot.shape, slot.rank, rows, rows,
                        slot.shared);
                    continue;
                }
                final MemorySegment target = allocator.allocate(slot.name, slot.dataType, slot.shape, length);
                if (target == null || target.byteSize() < length)
                {
                    throw new InferenceException(ErrorCode.INTERNAL, "response allocator returned "
                        + (target == null ? "null" : target.byteSize() + " bytes") + " for output '" + slot.name
                        + "' of model '" + model.name() + "', which needs " + length + " bytes");
                }
                final MemorySegment exact = target.byteSize() == length ? target : target.asSlice(0, length);
                MemorySegment.copy(slot.data, start, exact, 0, length);
                outputBytesCopied += length;
                ResponseAssembly.addOutput(response, slot.name, slot.dataType, slot.shape, slot.rank, exact,
                    target, allocator);
            }
            finally
            {
                if (batchDimension)
                {
                    slot.shape[0] = savedBatch;
                }
            }
        }
    }

    /** Byte offset of element {@code index} of a BYTES tensor (4-byte little-endian length prefixes). */
    private long bytesElementOffset(final MemorySegment data, final long index)
    {
        long offset = 0;
        for (long i = 0; i < index; i++)
        {
            if (offset + 4 > data.byteSize())
            {
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + model.name()
                    + "' produced a BYTES output with fewer elements than its shape says");
            }
            final int length = data.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                offset);
            offset += 4L + Integer.toUnsignedLong(length);
        }
        return offset;
    }

    private void releaseDirectOutputs(final AssembledBatch batch)
    {
        if (batch.payload == null || batch.payload.count() != 1)
        {
            return;
        }
        final PendingRequest only = batch.payload.get(0);
        for (final AssembledBatch.OutputSlot slot : batch.outputs)
        {
            if (slot.allocated && slot.direct && slot.allocation != null)
            {
                model.allocatorFor(only).release(slot.allocation);
                slot.allocation = null;
                slot.data = null;
                slot.allocated = false;
            }
        }
    }

    private InferenceResponse[] responseScratch = new InferenceResponse[8];
    private boolean[] failedScratch = new boolean[8];

    private InferenceResponse[] responses(final int count)
    {
        if (responseScratch.length < count)
        {
            responseScratch = new InferenceResponse[count];
        }
        return responseScratch;
    }

    private boolean[] failedFlags(final int count)
    {
        if (failedScratch.length < count)
        {
            failedScratch = new boolean[count];
        }
        return failedScratch;
    }

    static String describe(final Throwable failure)
    {
        final String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
