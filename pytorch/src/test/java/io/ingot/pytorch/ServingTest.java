package io.ingot.pytorch;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.pytorch.script.ExampleModels;
import io.ingot.pytorch.script.ScriptModule;
import io.ingot.pytorch.script.ScriptTensor;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TorchScript models served by a real core: the example repository's MLP, and bad models beside good ones. */
class ServingTest
{
    private static final int REQUESTS = 24;

    @TempDir
    Path repository;

    @Test
    void theExampleMlpAnswersEveryRequestAsJavaComputesItBatchedOrNot() throws Exception
    {
        final Path examples = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        final Path file = examples.resolve(ExampleModels.MLP).resolve("1").resolve("model.pt");
        assertTrue(Files.isRegularFile(file), file + " is missing: the pytorch module's build writes it");
        final ScriptModule module = ExampleModels.mlp();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(examples)
            .controlMode(ModelControlMode.EXPLICIT).startupModel(ExampleModels.MLP).build());
            Arena arena = Arena.ofShared())
        {
            assertTrue(core.isModelReady(ExampleModels.MLP, -1), () -> core.repositoryIndex(false).toString());
            final SplittableRandom random = new SplittableRandom(5);
            final List<float[]> inputs = new ArrayList<>();
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int r = 0; r < REQUESTS; r++)
            {
                final float[] x = new float[ExampleModels.INPUTS];
                for (int i = 0; i < x.length; i++)
                {
                    x[i] = (float)random.nextDouble(-2, 2);
                }
                inputs.add(x);
                final MemorySegment data = arena.allocate((long)x.length * Float.BYTES, 64);
                MemorySegment.copy(x, 0, data, ValueLayout.JAVA_FLOAT, 0, x.length);
                futures.add(core.submit(new InferenceRequest(ExampleModels.MLP).id("r" + r)
                    .addInput("INPUT__0", DataType.FP32, new long[] {1, ExampleModels.INPUTS}, data)));
            }
            for (int r = 0; r < REQUESTS; r++)
            {
                try (InferenceResponse response = futures.get(r).get(60, TimeUnit.SECONDS).throwIfError())
                {
                    final float[] got = response.output("OUTPUT__0").data().toArray(ValueLayout.JAVA_FLOAT);
                    final float[] expected = mlp(module, inputs.get(r));
                    assertEquals(ExampleModels.OUTPUTS, got.length);
                    for (int i = 0; i < got.length; i++)
                    {
                        assertEquals(expected[i], got[i], 1e-5, "request " + r + " output " + i);
                    }
                }
            }
            // Requests submitted at once share executions: the batched rows came through the instances' staging.
            final var statistics = core.modelStatistics(ExampleModels.MLP, -1).getFirst();
            assertTrue(statistics.batchStats().stream().anyMatch(batch -> batch.batchSize() > 1),
                statistics::toString);
        }
    }

    @Test
    void badModelsFailToLoadWithTheirReasonAndTheOthersServe() throws Exception
    {
        writeModel("good", TorchModels.affine(), """
            name: "good" platform: "pytorch_libtorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """);
        writeModel("mismatch", TorchModels.affine(), """
            name: "mismatch" platform: "pytorch_libtorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            input { name: "INPUT__1" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """);
        final Path corrupt = repository.resolve("corrupt");
        Files.createDirectories(corrupt.resolve("1"));
        Files.write(corrupt.resolve("1").resolve("model.pt"), new byte[] {'P', 'K', 3, 4, 0, 0, 1, 2, 3});
        Files.writeString(corrupt.resolve("config.pbtxt"), """
            name: "corrupt" backend: "pytorch"
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
            Arena arena = Arena.ofShared())
        {
            final Map<String, ModelIndexEntry> index = core.repositoryIndex(false).stream()
                .collect(Collectors.toMap(ModelIndexEntry::name, entry -> entry));
            assertEquals("READY", index.get("good").state(), index.toString());
            assertEquals("UNAVAILABLE", index.get("mismatch").state());
            assertTrue(index.get("mismatch").reason().contains("unable to load model 'mismatch', configuration expects"
                + " 2 inputs, model provides 1 (forward(INPUT__0))"), index.get("mismatch").reason());
            assertEquals("UNAVAILABLE", index.get("corrupt").state());
            assertTrue(index.get("corrupt").reason().contains("is not a TorchScript model: it is not a zip archive"),
                index.get("corrupt").reason());

            final MemorySegment data = arena.allocate(8, 64);
            data.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 3);
            data.setAtIndex(ValueLayout.JAVA_FLOAT, 1, -1);
            try (InferenceResponse response = core.submit(new InferenceRequest("good")
                .addInput("INPUT__0", DataType.FP32, new long[] {1, 2}, data)).get(60, TimeUnit.SECONDS)
                .throwIfError())
            {
                final float[] got = response.output("OUTPUT__0").data().toArray(ValueLayout.JAVA_FLOAT);
                assertEquals(7f, got[0]);
                assertEquals(-1f, got[1]);
            }
        }
    }

    private void writeModel(final String name, final ScriptModule module, final String config) throws Exception
    {
        final Path dir = repository.resolve(name);
        TorchModels.write(module, dir);
        Files.writeString(dir.resolve("config.pbtxt"), config);
    }

    /** The MLP of {@link io.ingot.pytorch.script.ScriptModels#mlp}, in Java. */
    static float[] mlp(final ScriptModule module, final float[] x)
    {
        final float[] w1 = floats(module.parameters().get("w1"));
        final float[] b1 = floats(module.parameters().get("b1"));
        final float[] w2 = floats(module.parameters().get("w2"));
        final float[] b2 = floats(module.parameters().get("b2"));
        final float[] hidden = new float[b1.length];
        for (int h = 0; h < hidden.length; h++)
        {
            double sum = b1[h];
            for (int i = 0; i < x.length; i++)
            {
                sum += (double)w1[h * x.length + i] * x[i];
            }
            hidden[h] = (float)Math.max(0, sum);
        }
        final float[] out = new float[b2.length];
        for (int o = 0; o < out.length; o++)
        {
            double sum = b2[o];
            for (int h = 0; h < hidden.length; h++)
            {
                sum += (double)w2[o * hidden.length + h] * hidden[h];
            }
            out[o] = (float)sum;
        }
        return out;
    }

    private static float[] floats(final ScriptTensor tensor)
    {
        final ByteBuffer bytes = ByteBuffer.wrap(tensor.data()).order(ByteOrder.LITTLE_ENDIAN);
        final float[] values = new float[tensor.data().length / Float.BYTES];
        bytes.asFloatBuffer().get(values);
        return values;
    }
}
