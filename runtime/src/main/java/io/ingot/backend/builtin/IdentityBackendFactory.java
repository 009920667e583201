package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;

/**
 * {@code backend: "identity"}: output {@code i} is a copy of input {@code i} (Triton's identity backend). Inputs and
 * outputs pair up by position and must agree in datatype.
 */
public final class IdentityBackendFactory implements BackendFactory
{
    @Override
    public String name()
    {
        return "identity";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final ModelConfig config = context.config();
        BuiltinChecks.requirePairedOutputs(config);
        return instance -> new IdentityEngine();
    }

    /** Copies each input to its paired output. Allocates nothing per batch: the shape goes through a reused array. */
    static final class IdentityEngine implements Engine
    {
        private long[] shape = new long[4];

        @Override
        public void execute(final Batch batch)
        {
            final ModelConfig config = batch.config();
            for (int i = 0; i < config.getOutputCount(); i++)
            {
                final String outputName = config.getOutput(i).getName();
                if (!batch.isOutputRequested(outputName))
                {
                    continue;
                }
                final BatchInput input = batch.input(config.getInput(i).getName());
                if (input == null)
                {
                    throw new IllegalStateException("identity model '" + config.getName() + "': input '"
                        + config.getInput(i).getName() + "' is absent, so output '" + outputName
                        + "' cannot be produced");
                }
                final long[] outputShape = shapeOf(input);
                final MemorySegment output = input.dataType().byteSize() < 0
                    ? batch.allocateOutput(outputName, outputShape, input.data().byteSize())
                    : batch.allocateOutput(outputName, outputShape);
                MemorySegment.copy(input.data(), 0, output, 0, input.data().byteSize());
            }
        }

        private long[] shapeOf(final BatchInput input)
        {
            final int rank = input.rank();
            if (shape.length != rank)
            {
                shape = new long[rank];
            }
            for (int d = 0; d < rank; d++)
            {
                shape[d] = input.dim(d);
            }
            return shape;
        }

        @Override
        public boolean acceptsHeapInputs()
        {
            return true;
        }
    }
}
