package io.ingot.backend.builtin;

import io.ingot.tensor.DataType;
import io.ingot.backend.Backend;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code backend: "add_sub"}: Triton's {@code simple} model. Inputs {@code INPUT0}, {@code INPUT1}; outputs
 * {@code OUTPUT0 = INPUT0 + INPUT1} and {@code OUTPUT1 = INPUT0 - INPUT1}, elementwise, FP32 or INT32, all four of
 * one datatype and one shape.
 */
public final class AddSubBackendFactory implements BackendFactory
{
    @Override
    public String name()
    {
        return "add_sub";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final ModelConfig config = context.config();
        final String model = config.getName();
        if (config.getInputCount() != 2 || config.getOutputCount() != 2)
        {
            throw new IllegalArgumentException("model '" + model + "' (backend 'add_sub'): needs inputs INPUT0, "
                + "INPUT1 and outputs OUTPUT0, OUTPUT1; has " + config.getInputCount() + " inputs and "
                + config.getOutputCount() + " outputs");
        }
        final DataType type = DataType.fromConfigNumber(config.getInput(0).getDataTypeValue());
        if (type != DataType.FP32 && type != DataType.INT32)
        {
            throw new IllegalArgumentException("model '" + model + "' (backend 'add_sub'): data_type must be "
                + "TYPE_FP32 or TYPE_INT32, got " + config.getInput(0).getDataType());
        }
        for (int i = 0; i < 2; i++)
        {
            if (config.getInput(i).getDataType() != config.getInput(0).getDataType()
                || config.getOutput(i).getDataType() != config.getInput(0).getDataType())
            {
                throw new IllegalArgumentException("model '" + model + "' (backend 'add_sub'): every input and "
                    + "output must have data_type " + config.getInput(0).getDataType());
            }
        }
        return instance -> new AddSubEngine(config.getInput(0).getName(), config.getInput(1).getName(),
            config.getOutput(0).getName(), config.getOutput(1).getName(), type);
    }

    /** Elementwise sum and difference. */
    static final class AddSubEngine implements Engine
    {
        private final String input0;
        private final String input1;
        private final String output0;
        private final String output1;
        private final boolean floats;

        AddSubEngine(final String input0, final String input1, final String output0, final String output1,
            final DataType type)
        {
            this.input0 = input0;
            this.input1 = input1;
            this.output0 = output0;
            this.output1 = output1;
            this.floats = type == DataType.FP32;
        }

        @Override
        public void execute(final Batch batch)
        {
            final BatchInput a = batch.input(input0);
            final BatchInput b = batch.input(input1);
            if (a.data().byteSize() != b.data().byteSize())
            {
                throw new IllegalArgumentException("add_sub: " + input0 + " has " + a.data().byteSize()
                    + " bytes but " + input1 + " has " + b.data().byteSize() + "; both must have one shape");
            }
            final long[] shape = a.shape();
            final long elements = a.data().byteSize() / 4;
            if (batch.isOutputRequested(output0))
            {
                combine(a.data(), b.data(), batch.allocateOutput(output0, shape), elements, true);
            }
            if (batch.isOutputRequested(output1))
            {
                combine(a.data(), b.data(), batch.allocateOutput(output1, shape), elements, false);
            }
        }

        private void combine(final MemorySegment x, final MemorySegment y, final MemorySegment out,
            final long elements, final boolean add)
        {
            for (long i = 0; i < elements; i++)
            {
                final long offset = i * 4;
                if (floats)
                {
                    final float p = x.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset);
                    final float q = y.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset);
                    out.set(ValueLayout.JAVA_FLOAT_UNALIGNED, offset, add ? p + q : p - q);
                }
                else
                {
                    final int p = x.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
                    final int q = y.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
                    out.set(ValueLayout.JAVA_INT_UNALIGNED, offset, add ? p + q : p - q);
                }
            }
        }

        /** Plain Java over the batch's memory, no state tied to a thread: any thread may run a batch. */
        @Override
        public boolean runsOnAnyThread()
        {
            return true;
        }

        @Override
        public boolean acceptsHeapInputs()
        {
            return true;
        }
    }
}
