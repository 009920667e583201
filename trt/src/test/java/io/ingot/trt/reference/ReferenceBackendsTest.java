package io.ingot.trt.reference;

import io.ingot.tensor.DataType;
import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.DeviceDiscovery;
import io.ingot.testing.TestModels;
import io.ingot.trt.gpu.HostMemoryOps;
import io.ingot.trt.testing.Models;
import io.ingot.testing.FakeBatch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.ServiceLoader;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU reference backends' logic over host memory (no CUDA needed), and their load error on a machine without a
 * usable GPU. Their GPU behaviour is tested by {@link ReferenceBackendsGpuTest}.
 */
class ReferenceBackendsTest
{
    static final String IDENTITY_CONFIG = """
        name: "identity" backend: "cuda_identity" max_batch_size: 16
        input [
          { name: "INPUT0" data_type: TYPE_FP32 dims: [ 3 ] },
          { name: "INPUT1" data_type: TYPE_INT64 dims: [ -1 ] }
        ]
        output [
          { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 3 ] },
          { name: "OUTPUT1" data_type: TYPE_INT64 dims: [ -1 ] }
        ]
        instance_group [ { kind: KIND_GPU count: 1 } ]
        """;

    static final String MLP_CONFIG = """
        name: "mlp" backend: "cublas_mlp" max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 3 ] } ]
        parameters { key: "layers" value { string_value: "16, 32, 24, 3" } }
        parameters { key: "seed" value { string_value: "1234" } }
        instance_group [ { kind: KIND_GPU count: 1 } ]
        """;

    @Test
    void bothAreRegisteredWithServiceLoader()
    {
        final List<String> names = ServiceLoader.load(BackendFactory.class).stream()
            .map(provider -> provider.get().name()).toList();
        assertTrue(names.containsAll(List.of("cuda_identity", "cublas_mlp", "tensorrt")), names::toString);
    }

    @Test
    void identityReturnsEachInputAsItsOutput() throws Exception
    {
        final ModelConfig config = TestModels.config(IDENTITY_CONFIG);
        final ModelContext model = TestModels.context(config, null);
        final SplittableRandom random = new SplittableRandom(3);
        try (Backend backend = new CudaIdentityBackendFactory(new HostMemoryOps()).load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (final int[] shape : new int[][] {{1, 5}, {16, 2}, {4, 300}})
            {
                final int rows = shape[0];
                final int width = shape[1];
                final float[] floats = new float[rows * 3];
                final long[] longs = new long[rows * width];
                for (int i = 0; i < floats.length; i++)
                {
                    floats[i] = (float) random.nextDouble();
                }
                for (int i = 0; i < longs.length; i++)
                {
                    longs[i] = random.nextLong();
                }
                try (FakeBatch batch = new FakeBatch(config, rows))
                {
                    batch.input("INPUT0", DataType.FP32, new long[] {rows, 3}, floats)
                        .input("INPUT1", DataType.INT64, new long[] {rows, width}, longs);
                    engine.execute(batch);
                    assertArrayEquals(floats, batch.floats("OUTPUT0"));
                    assertArrayEquals(new long[] {rows, width}, batch.outputShape("OUTPUT1"));
                    assertArrayEquals(longs, batch.output("OUTPUT1").toArray(java.lang.foreign.ValueLayout.JAVA_LONG),
                        "variable dims grow the buffers (width " + width + ")");
                }
            }
        }
    }

    @Test
    void identityRejectsOutputsThatDoNotMirrorInputs()
    {
        final ModelConfig mismatched = TestModels.config(IDENTITY_CONFIG.replace(
            "{ name: \"OUTPUT0\" data_type: TYPE_FP32 dims: [ 3 ]"
                + " }", "{ name: \"OUTPUT0\" data_type: TYPE_FP16 dims: [ 3 ] }"));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> new CudaIdentityBackendFactory(new HostMemoryOps()).load(TestModels.context(mismatched, null)));
        assertEquals("model 'identity' version 1: output 'OUTPUT0' (TYPE_FP16 [3]) must have the type and dims of "
            + "input 'INPUT0' (TYPE_FP32 [3])", failure.getMessage());
    }

    @Test
    void mlpMatchesTheCpuReference() throws Exception
    {
        final ModelConfig config = TestModels.config(MLP_CONFIG);
        final ModelContext model = TestModels.context(config, null);
        final MlpSpec spec = MlpSpec.from("test", config);
        final SplittableRandom random = new SplittableRandom(11);
        try (Backend backend = new CublasMlpBackendFactory(new HostMemoryOps(), stream -> new HostDenseKernel())
            .load(model); Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (final int rows : new int[] {1, 5, 8})
            {
                final float[] input = new float[rows * 16];
                for (int i = 0; i < input.length; i++)
                {
                    input[i] = (float) (random.nextDouble() * 2 - 1);
                }
                try (FakeBatch batch = new FakeBatch(config, rows))
                {
                    batch.input("INPUT0", DataType.FP32, new long[] {rows, 16}, input);
                    engine.execute(batch);
                    assertArrayEquals(new long[] {rows, 3}, batch.outputShape("OUTPUT0"));
                    MlpReference.assertClose(MlpReference.run(spec, input, rows), batch.floats("OUTPUT0"),
                        "batch of " + rows);
                }
            }
        }
    }

    @Test
    void mlpWeightsDependOnTheSeedOnly()
    {
        final MlpSpec spec = MlpSpec.from("test", TestModels.config(MLP_CONFIG));
        assertArrayEquals(MlpWeights.generate(spec).weights(1), MlpWeights.generate(spec).weights(1));
        final MlpSpec other = new MlpSpec(spec.widths(), spec.seed() + 1);
        assertTrue(MlpWeights.generate(spec).weights(0)[0] != MlpWeights.generate(other).weights(0)[0]);
        final float bound = (float) (1 / Math.sqrt(32));
        for (final float w : MlpWeights.generate(spec).weights(1))
        {
            assertTrue(Math.abs(w) <= bound, "weights are scaled by 1/sqrt(fan-in)");
        }
    }

    @Test
    void mlpConfigurationErrorsNameTheParameter()
    {
        final var factory = new CublasMlpBackendFactory(new HostMemoryOps(), stream -> new HostDenseKernel());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(
                TestModels.config("name: \"mlp\" backend: \"cublas_mlp\" max_batch_size: 1"), null)));
        assertTrue(missing.getMessage().startsWith("model 'mlp' version 1: cublas_mlp needs parameter 'layers'"),
            missing.getMessage());
        final IllegalArgumentException badWidth = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(
                TestModels.config(MLP_CONFIG.replace("16, 32, 24, 3", "16, x, 3")), null)));
        assertEquals("model 'mlp' version 1: parameter 'layers' is '16, x, 3'; width 2 ('x') must be an integer from "
            + "1 to 32768", badWidth.getMessage());
        final IllegalArgumentException wrongDims = assertThrows(IllegalArgumentException.class,
            () -> factory.load(TestModels.context(
                TestModels.config(MLP_CONFIG.replace("dims: [ 3 ]", "dims: [ 4 ]")), null)));
        assertEquals("model 'mlp' version 1: cublas_mlp output 'OUTPUT0' must be TYPE_FP32 with dims [3] (from "
            + "parameter 'layers'), but config.pbtxt has TYPE_FP32 [4]", wrongDims.getMessage());
        final ModelConfig completed = factory.autoComplete(TestModels.config("""
            name: "mlp" backend: "cublas_mlp" max_batch_size: 4
            parameters { key: "layers" value { string_value: "8,2" } }
            """), null, List.of());
        assertEquals(List.of(8L), completed.getInput(0).getDimsList());
        assertEquals(List.of(2L), completed.getOutput(0).getDimsList());
    }

    @Test
    void withoutAUsableGpuTheLoadFailsNamingTheModelAndTheReason()
    {
        final DeviceDiscovery.Result discovery = DeviceDiscovery.discover();
        Assumptions.assumeFalse(discovery.hasDevices(), "this machine has a GPU: " + discovery.reason());
        final IllegalStateException identity = assertThrows(IllegalStateException.class,
            () -> new CudaIdentityBackendFactory().load(TestModels.context(TestModels.config(IDENTITY_CONFIG), null)));
        assertTrue(identity.getMessage().startsWith("model 'identity' version 1: no usable GPU was found"),
            identity.getMessage());
        final IllegalStateException mlp = assertThrows(IllegalStateException.class,
            () -> new CublasMlpBackendFactory().load(TestModels.context(TestModels.config(MLP_CONFIG), null)));
        assertTrue(mlp.getMessage().startsWith("model 'mlp' version 1: no usable GPU was found"), mlp.getMessage());
        System.out.println("[no-gpu load error, as a user sees it] " + mlp.getMessage());
    }
}
