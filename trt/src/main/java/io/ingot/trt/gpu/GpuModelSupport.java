package io.ingot.trt.gpu;

import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;

/** What every GPU backend of this module checks the same way: labels, instance kinds and device selection. */
public final class GpuModelSupport
{
    private GpuModelSupport()
    {
    }

    /**
     * @param model a model version
     * @return {@code model 'name' version v}, the prefix of every message about it
     */
    public static String label(final ModelContext model)
    {
        return "model '" + model.modelName() + "' version " + model.version();
    }

    /**
     * @param modelLabel the model's label
     * @param instance   an instance about to be created
     * @param backend    the backend's name, for the message
     * @return {@code <model label> instance '<name>'}
     * @throws IllegalArgumentException when the instance is not a GPU instance
     */
    public static String requireGpuInstance(final String modelLabel, final InstanceContext instance,
        final String backend)
    {
        final String label = modelLabel + " instance '" + instance.name() + "'";
        if (instance.kind() != ModelInstanceGroup.Kind.KIND_GPU
            && instance.kind() != ModelInstanceGroup.Kind.KIND_MODEL)
        {
            throw new IllegalArgumentException(label + ": " + backend + " instances run on a GPU, but the instance "
                + "group is " + instance.kind() + "; use kind: KIND_GPU");
        }
        return label;
    }

    /**
     * @param config a model configuration
     * @return the first GPU any instance group lists, or 0
     */
    public static int firstDevice(final ModelConfig config)
    {
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            if (group.getGpusCount() > 0)
            {
                return group.getGpus(0);
            }
        }
        return 0;
    }

    /**
     * Makes a device current on the calling thread, with an error that names the model.
     *
     * @param label  the model's (or instance's) label
     * @param ops    the memory operations
     * @param device the device
     * @throws IllegalStateException naming the model and the cause, e.g. "no usable GPU was found (...)"
     */
    public static void useDevice(final String label, final DeviceMemoryOps ops, final int device)
    {
        try
        {
            ops.useDevice(device);
        }
        catch (final GpuUnavailableException failure)
        {
            throw new IllegalStateException(label + ": " + failure.getMessage(), failure);
        }
        catch (final RuntimeException failure)
        {
            throw new IllegalStateException(label + ": cannot use GPU " + device + ": " + failure.getMessage(),
                failure);
        }
    }
}
