package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;

import java.lang.foreign.MemorySegment;

/**
 * {@code backend: "sequence_accumulator"}: the accumulator of Triton's sequence-batcher QA models, computed in Java —
 * per sequence, {@code OUTPUT = INPUT} on START and {@code OUTPUT = previous OUTPUT + INPUT} after it (INT32, first
 * element of each row). The running sum of each batch row lives in the engine: the Direct strategy gives a sequence
 * the same row of the same instance for its whole life, which is exactly what this backend relies on; a padding row
 * (READY 0) leaves its row's sum alone. One engine per instance, called by that instance's thread only.
 *
 * <p>With one {@code sequence_batching.state} (INT32, dims [1]) the engine keeps nothing: it computes
 * {@code OUTPUT = state input + INPUT} and writes the same value to the state output, and Ingot's implicit state
 * carries the sum from request to request (a START resets it to the initial state) — under either strategy.
 */
public final class SequenceAccumulatorBackendFactory implements BackendFactory
{
    @Override
    public String name()
    {
        return "sequence_accumulator";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final SequenceTensors tensors = SequenceTensors.of(context.config(), name());
        final int rows = Math.max(1, context.config().getMaxBatchSize());
        if (context.config().getSequenceBatching().getStateCount() == 1)
        {
            final var state = context.config().getSequenceBatching().getState(0);
            return instance -> new ImplicitStateAccumulator(tensors, state.getInputName(), state.getOutputName());
        }
        return instance -> new Engine()
        {
            private final int[] sums = new int[rows];

            @Override
            public void execute(final Batch batch)
            {
                final BatchInput input = batch.input(tensors.input());
                final BatchInput start = batch.input(tensors.start());
                final BatchInput ready = batch.input(tensors.ready());
                final MemorySegment out = batch.allocateOutput(tensors.output(), input.shape());
                final long perRow = input.data().byteSize() / 4 / batch.batchSize();
                for (int row = 0; row < batch.batchSize(); row++)
                {
                    if (SequenceTensors.element(ready, row) != 0)
                    {
                        final int value = SequenceTensors.element(input, row * perRow);
                        sums[row] = SequenceTensors.element(start, row) != 0 ? value : sums[row] + value;
                    }
                    for (long e = 0; e < perRow; e++)
                    {
                        SequenceTensors.set(out, row * perRow + e, sums[row]);
                    }
                }
            }

            @Override
            public boolean acceptsHeapInputs()
            {
                return true;
            }
        };
    }

    /** The accumulator whose running sum lives in Ingot's implicit state. Stateless. */
    private record ImplicitStateAccumulator(SequenceTensors tensors, String stateIn, String stateOut) implements Engine
    {
        @Override
        public void execute(final Batch batch)
        {
            final BatchInput input = batch.input(tensors.input());
            final BatchInput previous = batch.input(stateIn);
            final MemorySegment out = batch.allocateOutput(tensors.output(), input.shape());
            final MemorySegment next = batch.allocateOutput(stateOut, input.shape());
            final long elements = input.data().byteSize() / 4;
            for (long i = 0; i < elements; i++)
            {
                final int sum = SequenceTensors.element(previous, i) + SequenceTensors.element(input, i);
                SequenceTensors.set(out, i, sum);
                SequenceTensors.set(next, i, sum);
            }
        }

        @Override
        public boolean acceptsHeapInputs()
        {
            return true;
        }
    }
}
