package io.ingot.trt.reference;

import io.ingot.tensor.DataType;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.trt.gpu.CudaMemoryOps;
import io.ingot.trt.gpu.DeviceMemoryOps;
import io.ingot.trt.gpu.GpuModelSupport;

import java.util.Objects;

/**
 * {@code backend: "cuda_identity"}: Triton's identity model on a GPU, a reference for the GPU data path where
 * TensorRT is absent. Output {@code i} is input {@code i}: each batch is copied host-to-device, device-to-device
 * and device-to-host on the instance's stream. Inputs and outputs pair by position and must agree in type and
 * dims; {@code TYPE_STRING} is not supported (its byte size is not known from its shape).
 *
 * <p>Loading checks that a GPU is usable: on a machine without one the load fails with "no usable GPU was found"
 * and CUDA's reason.
 */
public final class CudaIdentityBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "cuda_identity";

    private final DeviceMemoryOps ops;

    /** Creates the factory over the CUDA runtime (what {@link java.util.ServiceLoader} uses). */
    public CudaIdentityBackendFactory()
    {
        this(new CudaMemoryOps());
    }

    /**
     * @param ops how instances move data (a host implementation tests the logic without CUDA)
     */
    public CudaIdentityBackendFactory(final DeviceMemoryOps ops)
    {
        this.ops = Objects.requireNonNull(ops, "ops");
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final String label = GpuModelSupport.label(context);
        final ModelConfig config = context.config();
        check(label, config);
        GpuModelSupport.useDevice(label, ops, GpuModelSupport.firstDevice(config));
        return new Backend()
        {
            @Override
            public Engine createEngine(final InstanceContext instance)
            {
                final String instanceLabel = GpuModelSupport.requireGpuInstance(label, instance, NAME);
                final int device = Math.max(0, instance.deviceId());
                GpuModelSupport.useDevice(instanceLabel, ops, device);
                return new CudaIdentityEngine(instanceLabel, config, ops.openStream(device));
            }
        };
    }

    private static void check(final String label, final ModelConfig config)
    {
        if (config.getInputCount() == 0 || config.getInputCount() != config.getOutputCount())
        {
            throw new IllegalArgumentException(label + ": cuda_identity needs as many outputs as inputs (output i "
                + "is input i), and at least one; config.pbtxt has " + config.getInputCount() + " input(s) and "
                + config.getOutputCount() + " output(s)");
        }
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final ModelInput input = config.getInput(i);
            final ModelOutput output = config.getOutput(i);
            if (DataType.fromConfigNumber(input.getDataType().getNumber()) == DataType.BYTES)
            {
                throw new IllegalArgumentException(label + ": input '" + input.getName() + "' is TYPE_STRING; "
                    + "cuda_identity copies fixed-size elements only");
            }
            if (input.getDataType() != output.getDataType() || !input.getDimsList().equals(output.getDimsList()))
            {
                throw new IllegalArgumentException(label + ": output '" + output.getName() + "' ("
                    + output.getDataType() + " " + output.getDimsList() + ") must have the type and dims of input '"
                    + input.getName() + "' (" + input.getDataType() + " " + input.getDimsList() + ")");
            }
        }
    }
}
