package io.ingot.perf.pipeline;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.backend.builtin.IdentityBackendFactory;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.device.HostPinnedAllocator;

import java.util.List;

/** Ingot's built-in identity engine, loaded as the core loads it, for a baseline's own threads. */
final class BaselineEngine
{
    private BaselineEngine()
    {
    }

    /**
     * @param config the identity model's configuration
     * @param index  which engine of the baseline (its thread)
     * @return a new engine, used by one thread
     */
    static Engine create(final ModelConfig config, final int index)
    {
        try
        {
            final ModelContext model = new ModelContext(config.getName(), 1, config, null, null,
                new HostPinnedAllocator());
            final Backend backend = new IdentityBackendFactory().load(model);
            return backend.createEngine(new InstanceContext(model, "baseline_" + index, index,
                ModelInstanceGroup.Kind.KIND_CPU, -1, List.of()));
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("cannot create the identity engine: " + ex.getMessage(), ex);
        }
    }
}
