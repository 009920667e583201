package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;

import java.util.concurrent.locks.LockSupport;

/**
 * {@code backend: "cost"}: an identity model whose every execution takes {@code a + b·batch} microseconds — a model
 * with a known latency curve, for scheduling tests and benchmarks. Parameters (in {@code config.pbtxt}):
 * <ul>
 *   <li>{@code base_us} ({@code a}, default 0) and {@code per_item_us} ({@code b}, default 0);</li>
 *   <li>{@code mode}: {@code sleep} (default: the thread parks, the CPU is free) or {@code spin} (the
 *       thread busy-waits, like a compute-bound engine).</li>
 * </ul>
 * Outputs pair with inputs by position and are copies of them, so results can be checked.
 */
public final class CostBackendFactory implements BackendFactory
{
    @Override
    public String name()
    {
        return "cost";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final ModelConfig config = context.config();
        BuiltinChecks.requirePairedOutputs(config);
        final long base = micros(context, "base_us");
        final long perItem = micros(context, "per_item_us");
        final String mode = context.parameter("mode", "sleep");
        if (!mode.equals("sleep") && !mode.equals("spin"))
        {
            throw new IllegalArgumentException("model '" + config.getName() + "' (backend 'cost'): parameter 'mode' "
                + "must be 'sleep' or 'spin', got '" + mode + "'");
        }
        final boolean spin = mode.equals("spin");
        return instance -> new CostEngine(base, perItem, spin);
    }

    private static long micros(final ModelContext context, final String key)
    {
        final String value = context.parameter(key, "0");
        try
        {
            final long parsed = Long.parseLong(value.trim());
            if (parsed < 0)
            {
                throw new NumberFormatException();
            }
            return parsed;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("model '" + context.modelName() + "' (backend 'cost'): parameter '"
                + key + "' must be a non-negative whole number of microseconds, got '" + value + "'");
        }
    }

    /** Copies inputs to outputs, then waits out the configured cost. */
    static final class CostEngine implements Engine
    {
        private final IdentityBackendFactory.IdentityEngine identity = new IdentityBackendFactory.IdentityEngine();
        private final long baseNs;
        private final long perItemNs;
        private final boolean spin;

        CostEngine(final long baseMicros, final long perItemMicros, final boolean spin)
        {
            this.baseNs = baseMicros * 1000;
            this.perItemNs = perItemMicros * 1000;
            this.spin = spin;
        }

        @Override
        public void execute(final Batch batch)
        {
            final long start = System.nanoTime();
            identity.execute(batch);
            final long deadline = start + baseNs + perItemNs * batch.batchSize();
            long remaining;
            while ((remaining = deadline - System.nanoTime()) > 0)
            {
                if (spin)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    LockSupport.parkNanos(remaining);
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
