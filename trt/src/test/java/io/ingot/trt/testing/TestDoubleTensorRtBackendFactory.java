package io.ingot.trt.testing;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.backend.ModelVersion;
import io.ingot.trt.TensorRtBackendFactory;
import io.ingot.trt.gpu.HostMemoryOps;

import java.nio.file.Path;
import java.util.List;

/**
 * TEST DOUBLE registered (test scope only) as {@code backend: "tensorrt_test_double"}: Ingot's real TensorRT backend
 * over the shim's test double and host memory, so that the runtime core can load and serve TensorRT-backend models
 * on a machine without TensorRT or a GPU. Because such a machine has no GPU, the core places the instances on the
 * CPU; this factory hands them to the backend as instances of device 0, which host memory does not care about.
 */
public final class TestDoubleTensorRtBackendFactory implements BackendFactory
{
    /** The backend name models use to pick it. */
    public static final String NAME = "tensorrt_test_double";

    private final TensorRtBackendFactory backend = new TensorRtBackendFactory(new HostMemoryOps());

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
        final List<ModelVersion> versions) throws Exception
    {
        FakeTrtShim.install();
        // This machine has no GPU, so the core made the groups KIND_CPU; the backend completes only GPU models, so
        // it is shown GPU groups, and the completed configuration keeps the groups it was given.
        final ModelConfig.Builder onGpu = config.toBuilder();
        for (int i = 0; i < onGpu.getInstanceGroupCount(); i++)
        {
            onGpu.getInstanceGroupBuilder(i).setKind(ModelInstanceGroup.Kind.KIND_GPU).clearGpus().addGpus(0);
        }
        return backend.autoComplete(onGpu.build(), modelDirectory, versions).toBuilder().clearInstanceGroup()
            .addAllInstanceGroup(config.getInstanceGroupList()).build();
    }

    @Override
    public Backend load(final ModelContext context)
    {
        FakeTrtShim.install();
        final Backend loaded = backend.load(context);
        return new Backend()
        {
            @Override
            public Engine createEngine(final InstanceContext instance) throws Exception
            {
                return loaded.createEngine(new InstanceContext(instance.model(), instance.name(), instance.index(),
                    ModelInstanceGroup.Kind.KIND_GPU, 0, instance.profiles()));
            }

            @Override
            public void close() throws Exception
            {
                loaded.close();
            }
        };
    }
}
