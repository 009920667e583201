package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code backend: "identity"}: output {@code i} is a copy of input {@code i} (Triton's identity backend). Inputs and
 * outputs pair up by position and must agree in datatype. As in Triton's, the parameter {@code execute_delay_ms}
 * makes every execution wait that many milliseconds first (Triton's QA models use it to hold an instance busy).
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
        final String delay = context.parameter("execute_delay_ms", "0");
        final long delayMs;
        try
        {
            delayMs = Long.parseLong(delay.strip());
        }
        catch (final NumberFormatException notNumber)
        {
            throw new IllegalArgumentException("identity model '" + config.getName() + "': parameter "
                + "'execute_delay_ms' must be a whole number of milliseconds, got '" + delay + "'");
        }
        if (delayMs < 0)
        {
            throw new IllegalArgumentException("identity model '" + config.getName() + "': parameter "
                + "'execute_delay_ms' must not be negative, got " + delayMs);
        }
        return instance -> new IdentityEngine(delayMs);
    }

    /** Copies each input to its paired output. Allocates nothing per batch: the shape goes through a reused array. */
    static final class IdentityEngine implements Engine
    {
        private final long delayMs;
        private long[] shape = new long[4];

        IdentityEngine()
        {
            this(0);
        }

        IdentityEngine(final long delayMs)
        {
            this.delayMs = delayMs;
        }

        @Override
        public void execute(final Batch batch)
        {
            if (delayMs > 0)
            {
                final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
                for (long left = delayMs; left > 0; left = until - System.nanoTime())
                {
                    LockSupport.parkNanos(until - System.nanoTime());
                }
            }
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
