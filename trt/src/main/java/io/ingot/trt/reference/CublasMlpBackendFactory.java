package io.ingot.trt.reference;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.backend.ModelVersion;
import io.ingot.trt.gpu.CudaMemoryOps;
import io.ingot.trt.gpu.DeviceMemoryOps;
import io.ingot.trt.gpu.DeviceStream;
import io.ingot.trt.gpu.GpuModelSupport;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code backend: "cublas_mlp"}: a stack of dense FP32 layers run with cuBLAS through FFM, weights seeded from
 * the configuration ({@link MlpSpec}, {@link MlpWeights}). A reference for the GPU data path where TensorRT is
 * absent whose cost grows sub-linearly with the batch (a GEMM of {@code rows x k x n}), so dynamic batching shows
 * its value on a GPU. The layers are affine only: an activation would need an element-wise kernel, which cuBLAS
 * does not have and this module does not compile.
 *
 * <p>Loading checks that a GPU is usable: on a machine without one the load fails with "no usable GPU was found"
 * and CUDA's reason; a missing cuBLAS fails instance creation with the loader's list of places tried.
 */
public final class CublasMlpBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "cublas_mlp";

    private final DeviceMemoryOps ops;
    private final Function<DeviceStream, DenseKernel> kernels;

    /** Creates the factory over CUDA and cuBLAS (what {@link java.util.ServiceLoader} uses). */
    public CublasMlpBackendFactory()
    {
        this(new CudaMemoryOps(), CublasDenseKernel::new);
    }

    /**
     * @param ops     how instances move data
     * @param kernels makes an instance's dense kernel on its stream ({@link HostDenseKernel} with host memory)
     */
    public CublasMlpBackendFactory(final DeviceMemoryOps ops, final Function<DeviceStream, DenseKernel> kernels)
    {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.kernels = Objects.requireNonNull(kernels, "kernels");
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions)
    {
        return MlpSpec.from("model '" + config.getName() + "'", config).complete(config);
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final String label = GpuModelSupport.label(context);
        final ModelConfig config = context.config();
        final MlpSpec spec = MlpSpec.from(label, config);
        spec.check(label, config);
        GpuModelSupport.useDevice(label, ops, GpuModelSupport.firstDevice(config));
        final MlpWeights weights = MlpWeights.generate(spec);
        return new Backend()
        {
            @Override
            public Engine createEngine(final InstanceContext instance)
            {
                final String instanceLabel = GpuModelSupport.requireGpuInstance(label, instance, NAME);
                final int device = Math.max(0, instance.deviceId());
                GpuModelSupport.useDevice(instanceLabel, ops, device);
                final DeviceStream stream = ops.openStream(device);
                final DenseKernel kernel;
                try
                {
                    kernel = kernels.apply(stream);
                }
                catch (final RuntimeException failure)
                {
                    stream.close();
                    throw new IllegalStateException(instanceLabel + ": cannot create the dense kernel (cuBLAS): "
                        + failure.getMessage(), failure);
                }
                return new CublasMlpEngine(instanceLabel, config.getInput(0).getName(),
                    config.getOutput(0).getName(), spec, weights, config.getMaxBatchSize(), stream, kernel);
            }
        };
    }
}
