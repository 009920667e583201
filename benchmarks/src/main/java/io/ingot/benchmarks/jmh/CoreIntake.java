package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.perf.support.BenchModels;

import java.lang.foreign.Arena;

/**
 * Ingot's intake through the public API: {@link InferenceCore#submit(InferenceRequest, io.ingot.api.ResponseListener)}
 * of a one-element request to the identity model. Adds what the batcher-only variant leaves out — validation,
 * statistics, the identity engine and the response — so it bounds the intake rate an application sees.
 */
final class CoreIntake implements IntakePipeline
{
    private final InferenceCore core;
    private final Arena arena = Arena.ofShared();

    /**
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param ringSize     request ring slots
     * @param idleMode     how the core's threads wait
     */
    CoreIntake(final int maxBatchSize, final int ringSize, final IdleMode idleMode)
    {
        core = InferenceCore.open(CoreOptions.builder().model(BenchModels.identity(maxBatchSize, 1))
            .ringSize(ringSize).idleMode(idleMode).build());
    }

    @Override
    public IntakeSlot newSlot()
    {
        return new IntakeSlot(new InferenceRequest("identity").addInput("INPUT0", DataType.FP32, new long[] {1, 1},
            arena.allocate(4)));
    }

    @Override
    public void submit(final IntakeSlot slot)
    {
        slot.markBusy();
        core.submit(slot.request, slot);
    }

    @Override
    public void close()
    {
        core.close();
    }
}
