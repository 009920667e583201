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
import io.ingot.time.NanoClock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One model instance's execution: it assembles a batch's inputs into its staging, runs its engine, and writes each
 * requested output once into each response's memory, then delivers every response from its own thread. The engine
 * SPI is synchronous, so one staging set suffices: the next batch is assembled only after the engine returned.
 * Its thread's duty cycle (taking batches) is {@link InstanceAgent}'s. Not thread-safe: its instance thread only.
 *
 * <p>A decoupled model's batch runs through {@link DecoupledExecution} instead, zero or many responses per request.
 *
 * <p>An engine failure fails exactly its batch: every request of it gets an INTERNAL error naming the model and the
 * cause, and the instance serves the next batch.
 */
public final class ModelInstance implements AutoCloseable
{
    private static final Logger LOG = System.getLogger(ModelInstance.class.getName());

    private final InstanceHost host;
    private final NanoClock clock;
    private final String name;
    private final Engine engine;
    private final StatsCell stats;
    private final boolean batchDimension;
    private final AssembledBatch staging;
    /** How a decoupled model's batch runs, or {@code null}: the one-response path below is the only check. */
    private final DecoupledExecution decoupled;

    /**
     * @param host      the model version
     * @param index     the instance's index among the model's instances
     * @param name      instance name, for logs and thread names
     * @param engine    the instance's engine
     * @param allocator staging memory source
     */
    public ModelInstance(final InstanceHost host, final int index, final String name, final Engine engine,
        final PinnedAllocator allocator)
    {
        this.host = host;
        this.clock = host.clock();
        this.name = name;
        this.engine = engine;
        this.stats = host.stats().cell(index);
        this.batchDimension = host.config().getMaxBatchSize() > 0;
        this.staging = new AssembledBatch(host, allocator, engine.acceptsHeapInputs());
        this.decoupled = staging.senders() == null ? null
            : new DecoupledExecution(host, name, engine, stats, staging);
    }

    /** @return the instance's name. */
    public String name()
    {
        return name;
    }

    /** Releases the staging memory and closes the engine (after the last batch). */
    @Override
    public void close()
    {
        staging.close();
        try
        {
            engine.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "closing engine of instance " + name + " failed", ex);
        }
    }

    /**
     * Executes one batch and answers each of its requests.
     *
     * @param payload the batch
     */
    public void execute(final FormedBatch payload)
    {
        if (decoupled != null)
        {
            decoupled.execute(payload);
            return;
        }
        final int count = payload.count();
        final long computeStart = clock.nanoTime();
        final AssembledBatch batch = staging;

        long inputEnd = computeStart;
        long outputStart = computeStart;
        Throwable failure = null;
        try
        {
            batch.assemble(payload);
            inputEnd = clock.nanoTime();
            engine.execute(batch);
            batch.captureStates();
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

        if (failure != null)
        {
            releaseDirectOutputs(batch);
            final long end = clock.nanoTime();
            stats.beginUpdate();
            stats.batchExecuted(payload.batchSize(), inputEnd - computeStart, outputStart - inputEnd,
                end - outputStart, clock.currentTimeMillis());
            for (int r = 0; r < count; r++)
            {
                if (payload.get(r) != null)
                {
                    stats.requestFailed(end - payload.get(r).acceptedNs, FailureReason.BACKEND);
                }
            }
            stats.endUpdate();
            final String message = "model '" + host.modelName() + "' version " + host.version() + " instance "
                + name + " failed to execute a batch of " + payload.batchSize() + ": " + describe(failure);
            for (int r = 0; r < count; r++)
            {
                final PendingRequest pending = payload.get(r);
                if (pending == null)
                {
                    continue;
                }
                final InferenceResponse response = host.openResponse(pending);
                ResponseAssembly.fail(response, new InferenceException(ErrorCode.INTERNAL, message, failure));
                host.deliver(pending, response);
            }
            return;
        }

        final InferenceResponse[] responses = responses(count);
        final boolean[] failed = failedFlags(count);
        int row = 0;
        for (int r = 0; r < count; r++)
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
            final InferenceResponse response = host.openResponse(pending);
            responses[r] = response;
            try
            {
                scatter(batch, pending, row, response);
            }
            catch (final RuntimeException ex)
            {
                failed[r] = true;
                ResponseAssembly.fail(response, ex instanceof InferenceException ie ? ie
                    : new InferenceException(ErrorCode.INTERNAL, "model '" + host.modelName()
                        + "': writing the outputs of request '" + pending.request.id() + "' failed: "
                        + describe(ex), ex));
            }
            row += pending.batchSize;
        }
        final long end = clock.nanoTime();
        final long inputNs = inputEnd - computeStart;
        final long inferNs = outputStart - inputEnd;
        final long outputNs = end - outputStart;
        // The whole batch is counted before its first response leaves: a caller that reads the statistics after its
        // response sees its batch in them.
        stats.beginUpdate();
        stats.batchExecuted(payload.batchSize(), inputNs, inferNs, outputNs, clock.currentTimeMillis());
        for (int r = 0; r < count; r++)
        {
            final PendingRequest pending = payload.get(r);
            if (pending == null)
            {
                continue;
            }
            if (failed[r])
            {
                stats.requestFailed(end - pending.acceptedNs, FailureReason.OTHER);
            }
            else
            {
                stats.requestSucceeded(pending.batchSize, end - pending.acceptedNs, computeStart - pending.acceptedNs,
                    inputNs, inferNs, outputNs);
            }
            final RequestTrace trace = pending.request.trace();
            if (trace != null)
            {
                trace.computed(computeStart, inputEnd, outputStart, end);
            }
        }
        stats.endUpdate();
        for (int r = 0; r < count; r++)
        {
            final PendingRequest pending = payload.get(r);
            final InferenceResponse response = responses[r];
            responses[r] = null;
            if (pending != null)
            {
                host.deliver(pending, response);
            }
        }
    }

    private void scatter(final AssembledBatch batch, final PendingRequest pending, final int row,
        final InferenceResponse response)
    {
        final AssembledBatch.OutputSlot[] outputs = batch.outputs;
        final int batchSize = batch.payload.batchSize();
        for (int o = 0; o < outputs.length; o++)
        {
            if ((pending.requestedOutputs & (1L << o)) == 0)
            {
                continue;
            }
            final AssembledBatch.OutputSlot slot = outputs[o];
            if (!slot.allocated)
            {
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + host.modelName()
                    + "' did not produce requested output '" + slot.name + "'");
            }
            final ResponseAllocator allocator = host.allocatorFor(pending);
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
                final MemorySegment target = allocator.allocate(slot.name, slot.dataType, slot.shape, length);
                if (target == null || target.byteSize() < length)
                {
                    throw new InferenceException(ErrorCode.INTERNAL, "response allocator returned "
                        + (target == null ? "null" : target.byteSize() + " bytes") + " for output '" + slot.name
                        + "' of model '" + host.modelName() + "', which needs " + length + " bytes");
                }
                final MemorySegment exact = target.byteSize() == length ? target : target.asSlice(0, length);
                MemorySegment.copy(slot.data, start, exact, 0, length);
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
                throw new InferenceException(ErrorCode.INTERNAL, "model '" + host.modelName()
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
                host.allocatorFor(only).release(slot.allocation);
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
