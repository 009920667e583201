package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;

import java.lang.foreign.MemorySegment;

/**
 * {@code backend: "simple_sequence"}: Triton's {@code simple_sequence} example model, computed in Java —
 * {@code OUTPUT = (INPUT + START) * READY} per element, INT32, with START and READY the sequence batcher's control
 * tensors ({@code int32_false_true: [0, 1]}). With END and a UINT64 CORRID control as well it is Triton's
 * {@code simple_dyna_sequence}: {@code OUTPUT = ((INPUT + START) + END * CORRID) * READY}. It keeps no state, so what
 * it shows is the control tensors each row receives. Stateless and thread-safe.
 */
public final class SimpleSequenceBackendFactory implements BackendFactory
{
    @Override
    public String name()
    {
        return "simple_sequence";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final SequenceTensors tensors = SequenceTensors.of(context.config(), name());
        return instance -> new Engine()
        {
            @Override
            public void execute(final Batch batch)
            {
                final BatchInput input = batch.input(tensors.input());
                final BatchInput start = batch.input(tensors.start());
                final BatchInput ready = batch.input(tensors.ready());
                final BatchInput end = tensors.end() == null ? null : batch.input(tensors.end());
                final BatchInput corrid = tensors.corrid() == null ? null : batch.input(tensors.corrid());
                final MemorySegment out = batch.allocateOutput(tensors.output(), input.shape());
                final long elements = input.data().byteSize() / 4;
                final long perRow = elements / batch.batchSize();
                for (long i = 0; i < elements; i++)
                {
                    final long row = i / perRow;
                    final int ended = end == null || corrid == null ? 0
                        : SequenceTensors.element(end, row) * SequenceTensors.lowBits(corrid, row);
                    SequenceTensors.set(out, i, (SequenceTensors.element(input, i)
                        + SequenceTensors.element(start, row) + ended) * SequenceTensors.element(ready, row));
                }
            }

            @Override
            public boolean acceptsHeapInputs()
            {
                return true;
            }
        };
    }
}
