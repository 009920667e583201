package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.ModelContext;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A state output that the configuration also lists as an output (Triton's implicit_state_management.md: so that a
 * client can ask for the state) is one tensor: the engine writes it once, the runtime carries it as the state on
 * every batch, and a client that asks for it gets it.
 */
class ListedStateOutputTest
{
    private static final String CONFIG = "name: 'listed' backend: 'running_total' max_batch_size: 2"
        + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'TOTAL' data_type: TYPE_INT32 dims: [1] }, { name: 'STATE_OUT' data_type: TYPE_INT32"
        + " dims: [1] }]"
        + " sequence_batching { max_sequence_idle_microseconds: 60000000"
        + " state [{ input_name: 'STATE_IN' output_name: 'STATE_OUT' data_type: TYPE_INT32 dims: [1]"
        + " initial_state [{ data_type: TYPE_INT32 dims: [1] zero_data: true name: 'zeros' }] }] }";

    /** TOTAL = STATE_OUT = STATE_IN + INPUT, written only where the batch wants them. */
    private static final class RunningTotal implements BackendFactory
    {
        final List<Boolean> stateWanted = new ArrayList<>();

        @Override
        public String name()
        {
            return "running_total";
        }

        @Override
        public Backend load(final ModelContext context)
        {
            return instance -> batch -> execute(batch);
        }

        private void execute(final Batch batch)
        {
            final MemorySegment input = batch.input("INPUT").data();
            final MemorySegment state = batch.input("STATE_IN").data();
            final long[] shape = batch.input("INPUT").shape();
            synchronized (stateWanted)
            {
                stateWanted.add(batch.isOutputRequested("STATE_OUT"));
            }
            for (final String name : List.of("TOTAL", "STATE_OUT"))
            {
                if (batch.isOutputRequested(name))
                {
                    final MemorySegment out = batch.allocateOutput(name, shape);
                    for (long i = 0; i < out.byteSize(); i += 4)
                    {
                        out.set(ValueLayout.JAVA_INT, i, input.get(ValueLayout.JAVA_INT, i)
                            + state.get(ValueLayout.JAVA_INT, i));
                    }
                }
            }
        }
    }

    @Test
    void theStateIsCarriedWhetherOrNotAClientAsksForIt() throws Exception
    {
        final RunningTotal backend = new RunningTotal();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().backend(backend)
            .model(TestModels.config(CONFIG)).build()); Arena arena = Arena.ofShared())
        {
            final List<String> seen = new ArrayList<>();
            final int[] values = {5, 7, 11, 13};
            for (int i = 0; i < values.length; i++)
            {
                final MemorySegment data = arena.allocate(4, 4);
                data.set(ValueLayout.JAVA_INT, 0, values[i]);
                final InferenceRequest request = new InferenceRequest("listed").sequence(3, i == 0, i == 3)
                    .addInput("INPUT", DataType.INT32, new long[] {1, 1}, data);
                // Odd requests ask for TOTAL only: the state must still be produced and carried.
                if (i % 2 == 1)
                {
                    request.requestOutput("TOTAL");
                }
                try (InferenceResponse response = core.submit(request).get(30, TimeUnit.SECONDS).throwIfError())
                {
                    seen.add(response.output("TOTAL").data().get(ValueLayout.JAVA_INT, 0) + (i % 2 == 1 ? ""
                        : "/" + response.output("STATE_OUT").data().get(ValueLayout.JAVA_INT, 0)));
                }
            }
            assertEquals(List.of("5/5", "12", "23/23", "36"), seen);
            synchronized (backend.stateWanted)
            {
                assertFalse(backend.stateWanted.contains(false), backend.stateWanted.toString());
            }
        }
    }
}
