package io.ingot.benchmarks.jmh;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceRequest;
import io.ingot.perf.support.BenchModels;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.Batcher;
import io.ingot.scheduler.Payload;
import io.ingot.scheduler.PayloadQueue;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ingot's intake on its own: producers publish into a model's request ring; the model's real {@link Batcher} thread
 * drains the ring and forms Triton-style dynamic batches into the {@link PayloadQueue}; one no-op instance thread
 * takes each batch and frees its slots. No validation, engine or response: only ring, batcher and batch hand-off.
 */
final class BatcherIntake implements IntakePipeline
{
    private final Batcher batcher;
    private final PayloadQueue payloads;
    private final Thread batcherThread;
    private final Thread instanceThread;
    private final InferenceRequest shared;
    private final Arena arena = Arena.ofShared();

    /**
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param ringSize     request ring slots
     * @param idleMode     how the batcher waits
     */
    BatcherIntake(final int maxBatchSize, final int ringSize, final IdleMode idleMode)
    {
        final ModelConfig config = BenchModels.identity(maxBatchSize, 1);
        final SchedulerSettings settings = SchedulerSettings.of(config);
        final Runnable[] waker = new Runnable[1];
        payloads = new PayloadQueue(1, settings.prefetch(), settings.maxBatchSize(), () -> waker[0].run());
        batcher = new Batcher("intake", settings, ringSize, payloads, BatcherIntake::unexpected, idleMode, true);
        waker[0] = batcher.waker();
        // The batcher compares shapes of variable-length inputs, so the request needs its one input.
        final MemorySegment element = arena.allocate(4);
        shared = new InferenceRequest("intake").addInput("INPUT0", DataType.FP32, new long[] {1, 1}, element);
        batcherThread = Thread.ofPlatform().name("intake-batcher").daemon(true).start(batcher);
        instanceThread = Thread.ofPlatform().name("intake-instance").daemon(true).start(this::consume);
    }

    private static void unexpected(final PendingRequest request, final ErrorCode code, final String message,
        final FailureReason reason)
    {
        throw new IllegalStateException("the intake batcher ended a request: " + code + " " + message);
    }

    private void consume()
    {
        while (true)
        {
            final Payload payload;
            try
            {
                payload = payloads.take();
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            if (payload == null)
            {
                return;
            }
            for (int i = 0; i < payload.count(); i++)
            {
                ((IntakeSlot)payload.get(i).listener).complete();
            }
            payloads.release(payload);
        }
    }

    @Override
    public IntakeSlot newSlot()
    {
        return new IntakeSlot(shared);
    }

    @Override
    public void submit(final IntakeSlot slot)
    {
        final PendingRequest pending = slot.pending;
        pending.clear();
        pending.request = slot.request;
        pending.listener = slot;
        pending.batchSize = 1;
        pending.acceptedNs = System.nanoTime();
        slot.markBusy();
        batcher.enqueue(pending);
    }

    @Override
    public void close()
    {
        batcher.stop();
        join(batcherThread);
        payloads.stopInstances();
        join(instanceThread);
        arena.close();
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
