package io.ingot.trt.testing;

import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;
import io.ingot.trt.TensorRtBackendFactory;
import io.ingot.trt.gpu.HostMemoryOps;

import java.nio.file.Path;

/**
 * Run in a child JVM by tests whose subject is process-wide state (which shim library gets bound): loads one
 * {@code tensorrt_plan} model (auto-completed from its plan) with the backend and prints {@code LOADED} or {@code
 * FAILED: <message>}.
 */
public final class LoadProbe
{
    private LoadProbe()
    {
    }

    /**
     * @param args the model name and its plan file
     */
    public static void main(final String[] args)
    {
        final ModelConfig bare = TestModels.config("name: \"" + args[0] + "\" platform: \"tensorrt_plan\"");
        final Path plan = Path.of(args[1]);
        final TensorRtBackendFactory factory = new TensorRtBackendFactory(new HostMemoryOps());
        try
        {
            final ModelConfig config = factory.autoComplete(bare, plan.getParent().getParent(),
                java.util.List.of(new io.ingot.backend.ModelVersion(1, plan.getParent(), plan)));
            factory.load(TestModels.context(config, plan)).close();
            System.out.println("LOADED with inputs " + config.getInputList().stream().map(i -> i.getName()).toList());
        }
        catch (final Exception failure)
        {
            System.out.println("FAILED: " + failure.getMessage());
        }
    }
}
