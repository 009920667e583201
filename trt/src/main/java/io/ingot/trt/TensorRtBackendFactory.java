package io.ingot.trt;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.trt.gpu.CudaMemoryOps;
import io.ingot.trt.gpu.DeviceMemoryOps;
import io.ingot.trt.shim.TrtCudaEngine;
import io.ingot.trt.shim.TrtRuntime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The TensorRT backend: serves {@code platform: "tensorrt_plan"} / {@code backend: "tensorrt"} models from a
 * serialized engine ({@code model.plan}) through Ingot's TensorRT shim.
 *
 * <ul>
 *   <li>{@link #autoComplete}: fills {@code max_batch_size}, inputs and outputs from the engine
 *       ({@link EngineConfigCompleter}) for a model with a {@code KIND_GPU} instance group, as Triton's backend
 *       does;</li>
 *   <li>{@link #load}: deserializes the plan and checks the configuration against the engine
 *       ({@link ModelBinding}): a corrupt plan, a missing TensorRT library or GPU, or tensors that disagree with
 *       {@code config.pbtxt} fail the load with a message naming the model and the cause;</li>
 *   <li>each instance ({@code kind: KIND_GPU}) gets its own execution contexts (one per optimization profile it
 *       uses: instance_group {@code profile}, see {@link ProfileLedger}), a non-blocking CUDA stream and device
 *       buffers for its profiles' largest shapes; batches run H2D, {@code enqueueV3}, D2H on that stream;</li>
 *   <li>CUDA graphs per input shape after warm-up: {@code optimization { cuda { graphs: true } }} or parameter
 *       {@code cuda_graphs: "true"}; off by default.</li>
 * </ul>
 *
 * <p>Registered for {@link java.util.ServiceLoader}; the no-argument constructor moves data with the CUDA runtime.
 */
public final class TensorRtBackendFactory implements BackendFactory
{
    /** The backend name. */
    public static final String NAME = "tensorrt";
    /** The platform name. */
    public static final String PLATFORM = "tensorrt_plan";
    /** The model file a version directory holds. */
    public static final String MODEL_FILE = "model.plan";

    private final DeviceMemoryOps ops;

    /** Creates the factory over the CUDA runtime (what {@link java.util.ServiceLoader} uses). */
    public TensorRtBackendFactory()
    {
        this(new CudaMemoryOps());
    }

    /**
     * @param ops how instances move data: {@link CudaMemoryOps} for real use; a host implementation lets tests run
     *            the backend over the shim's test double without CUDA
     */
    public TensorRtBackendFactory(final DeviceMemoryOps ops)
    {
        this.ops = Objects.requireNonNull(ops, "ops");
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Set<String> platforms()
    {
        return Set.of(PLATFORM);
    }

    /**
     * Completes {@code max_batch_size}, inputs and outputs from the engine, as Triton's TensorRT backend does
     * (tensorrt_backend {@code src/model_state.cc} {@code ModelState::Create}): only for a model with a
     * {@code KIND_GPU} instance group (a configuration without groups, not yet normalized, counts as one), because
     * TensorRT runs nowhere else; the runtime calls it only after the configuration passed Triton's model-level
     * validation and the version directories were found. A plan that cannot be read fails with Triton's
     * "unable to load plan file to auto complete config" and Ingot's reason after it.
     */
    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws Exception
    {
        if (versions.isEmpty() || !mayRunOnGpu(config))
        {
            return config;
        }
        final ModelVersion version = versions.getFirst();
        final String label = "model '" + config.getName() + "' version " + version.version();
        final Path plan = version.modelFile();
        if (plan == null || !Files.isRegularFile(plan))
        {
            throw new IllegalStateException("unable to load plan file to auto complete config: " + plan + " ("
                + label + ": it does not exist or is not a file)");
        }
        TensorRtBackend.requireTensorRt(label);
        TensorRtBackend.useDevice(label, ops, TensorRtBackend.firstDevice(config));
        try (TrtRuntime runtime = TensorRtBackend.createRuntime(label);
             TrtCudaEngine engine = TensorRtBackend.deserialize(label, runtime, plan))
        {
            return EngineConfigCompleter.complete(label, config, engine.signature());
        }
    }

    private static boolean mayRunOnGpu(final ModelConfig config)
    {
        return config.getInstanceGroupCount() == 0 || config.getInstanceGroupList().stream()
            .anyMatch(group -> group.getKind() == ModelInstanceGroup.Kind.KIND_GPU);
    }

    @Override
    public Backend load(final ModelContext context)
    {
        return TensorRtBackend.load(context, ops);
    }
}
