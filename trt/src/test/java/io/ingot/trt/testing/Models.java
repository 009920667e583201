package io.ingot.trt.testing;

import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelInstanceGroup;

import java.util.List;

/** Builds the SPI objects a backend is given, for testing backends without the runtime core. */
public final class Models
{
    private Models()
    {
    }

    /**
     * @param model    the model
     * @param index    instance index
     * @param profiles the instance group's {@code profile} entries
     * @return a GPU instance on device 0 named {@code <model>_<index>}
     */
    public static InstanceContext gpuInstance(final ModelContext model, final int index, final List<String> profiles)
    {
        return new InstanceContext(model, model.modelName() + "_" + index, index, ModelInstanceGroup.Kind.KIND_GPU, 0,
            profiles);
    }

    /**
     * @param model the model
     * @param index instance index
     * @return a GPU instance on device 0 with no listed profiles
     */
    public static InstanceContext gpuInstance(final ModelContext model, final int index)
    {
        return gpuInstance(model, index, List.of());
    }
}
