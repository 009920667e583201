package io.ingot.trt.testing;

import com.google.protobuf.TextFormat;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.device.HostPinnedAllocator;

import java.nio.file.Path;
import java.util.List;

/** Builds the SPI objects a backend is given, for testing backends without the runtime core. */
public final class Models
{
    private Models()
    {
    }

    /**
     * @param pbtxt a configuration in protobuf text format
     * @return the parsed configuration
     */
    public static ModelConfig config(final String pbtxt)
    {
        try
        {
            return TextFormat.parse(pbtxt, ModelConfig.class);
        }
        catch (final TextFormat.ParseException failure)
        {
            throw new IllegalArgumentException("bad test config: " + failure.getMessage(), failure);
        }
    }

    /**
     * @param config    the configuration (its name is the model's)
     * @param modelFile the model file (version directory = its parent), or {@code null}
     * @return the context of version 1
     */
    public static ModelContext context(final ModelConfig config, final Path modelFile)
    {
        return new ModelContext(config.getName(), 1, config, modelFile == null ? null : modelFile.getParent(),
            modelFile, new HostPinnedAllocator());
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
