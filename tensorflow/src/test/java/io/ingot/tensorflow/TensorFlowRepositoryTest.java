package io.ingot.tensorflow;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.savedmodel.GraphBuilder;
import io.ingot.tensorflow.savedmodel.SavedModelWriter;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One repository with good and bad TensorFlow models served by a real core: the good ones answer correctly, batched
 * and auto-completed; each bad one fails to load with a message naming the model and what was expected, and does not
 * stop the others.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TensorFlowRepositoryTest
{
    private InferenceCore core;

    @BeforeAll
    void serve(@TempDir final Path root) throws Exception
    {
        TestSavedModels.model(root, "simple", TestSavedModels.addSubConfig("simple")
            + " dynamic_batching { max_queue_delay_microseconds: 20000 }", TestSavedModels.addSub());
        // Nothing but the platform: inputs, outputs, max_batch_size and dynamic batching come from the signature.
        TestSavedModels.model(root, "bare", "platform: 'tensorflow_savedmodel'", TestSavedModels.affine());

        final Path corrupt = TestSavedModels.model(root, "corrupt", TestSavedModels.addSubConfig("corrupt"),
            TestSavedModels.addSub());
        Files.writeString(corrupt.resolve("saved_model.pb"), "not a SavedModel, whatever its name says");
        TestSavedModels.model(root, "disagrees", TestSavedModels.addSubConfig("disagrees")
            .replace("dims: [16] }, { name: 'INPUT1'", "dims: [8] }, { name: 'INPUT1'"), TestSavedModels.addSub());
        TestSavedModels.model(root, "complex", "name: 'complex' platform: 'tensorflow_savedmodel' max_batch_size: 4"
            + " input [{ name: 'z' data_type: TYPE_FP32 dims: [2] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [2] }]", complexSignature());
        TestSavedModels.model(root, "dangling", "name: 'dangling' platform: 'tensorflow_savedmodel'"
            + " max_batch_size: 4 input [{ name: 'x' data_type: TYPE_FP32 dims: [4] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [3] }]", danglingSignature());
        TestSavedModels.model(root, "unknown_op", "name: 'unknown_op' platform: 'tensorflow_savedmodel'"
            + " max_batch_size: 4 input [{ name: 'x' data_type: TYPE_FP32 dims: [4] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [4] }]", unknownOp());
        TestSavedModels.model(root, "no_file", TestSavedModels.addSubConfig("no_file"), null);
        core = InferenceCore.open(CoreOptions.builder().modelRepository(root).build());
    }

    /** A signature input of type DT_COMPLEX64, which Triton has no type for. */
    private static SavedModelWriter complexSignature()
    {
        final GraphBuilder graph = new GraphBuilder();
        graph.placeholder("x", DataType.FP32, -1, 2);
        graph.identity("y", "x", DataType.FP32);
        return new SavedModelWriter(graph.build(), "serve")
            .tensor("serving_default", true, "z", "x:0", 8, new long[] {-1, 2})
            .output("serving_default", "y", "y:0", DataType.FP32, new long[] {-1, 2});
    }

    /** A signature output naming a graph tensor the graph does not have. */
    private static SavedModelWriter danglingSignature()
    {
        final GraphBuilder graph = new GraphBuilder();
        graph.placeholder("x", DataType.FP32, -1, 4);
        return new SavedModelWriter(graph.build(), "serve")
            .input("serving_default", "x", "x:0", DataType.FP32, new long[] {-1, 4})
            .output("serving_default", "y", "logits:0", DataType.FP32, new long[] {-1, 3});
    }

    /** A graph with an op TensorFlow does not register. */
    private static SavedModelWriter unknownOp()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String x = graph.placeholder("x", DataType.FP32, -1, 4);
        graph.unary("IngotNoSuchOp", "y", x, DataType.FP32);
        return new SavedModelWriter(graph.build(), "serve")
            .input("serving_default", "x", "x:0", DataType.FP32, new long[] {-1, 4})
            .output("serving_default", "y", "y:0", DataType.FP32, new long[] {-1, 4});
    }

    @AfterAll
    void stop()
    {
        if (core != null)
        {
            core.close();
        }
    }

    private String reason(final String model)
    {
        for (final ModelIndexEntry entry : core.repositoryIndex(false))
        {
            if (entry.name().equals(model))
            {
                assertEquals("UNAVAILABLE", entry.state(), entry.toString());
                return entry.reason();
            }
        }
        throw new AssertionError(model + " is not in the index " + core.repositoryIndex(false));
    }

    @Test
    void concurrentRequestsAreBatchedAndEveryAnswerIsExact()
    {
        assertTrue(core.isModelReady("simple", -1), () -> core.repositoryIndex(false).toString());
        final List<CompletableFuture<InferenceResponse>> sent = new ArrayList<>();
        final List<float[]> firsts = new ArrayList<>();
        try (Arena arena = Arena.ofShared())
        {
            for (int r = 0; r < 8; r++)
            {
                final MemorySegment a = arena.allocate(64, 64);
                final MemorySegment b = arena.allocate(64, 64);
                final float[] first = new float[16];
                for (int i = 0; i < 16; i++)
                {
                    first[i] = r * 100 + i;
                    a.setAtIndex(ValueLayout.JAVA_FLOAT, i, first[i]);
                    b.setAtIndex(ValueLayout.JAVA_FLOAT, i, i * 0.5f);
                }
                firsts.add(first);
                sent.add(core.submit(new InferenceRequest("simple").id("r" + r)
                    .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
                    .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b)));
            }
            for (int r = 0; r < 8; r++)
            {
                try (InferenceResponse response = TestModels.await(sent.get(r)).throwIfError())
                {
                    final MemorySegment sum = response.output("OUTPUT0").data();
                    final MemorySegment difference = response.output("OUTPUT1").data();
                    for (int i = 0; i < 16; i++)
                    {
                        assertEquals(firsts.get(r)[i] + i * 0.5f, sum.getAtIndex(ValueLayout.JAVA_FLOAT, i));
                        assertEquals(firsts.get(r)[i] - i * 0.5f, difference.getAtIndex(ValueLayout.JAVA_FLOAT, i));
                    }
                }
            }
        }
        final var stats = core.modelStatistics("simple", -1).getFirst();
        assertEquals(8, stats.inferenceCount());
        assertTrue(stats.executionCount() < 8, "the 8 concurrent requests were not batched: " + stats);
    }

    @Test
    void aBareConfigurationIsCompletedFromTheSignature()
    {
        assertTrue(core.isModelReady("bare", -1), () -> core.repositoryIndex(false).toString());
        final ModelConfig config = core.modelConfig("bare", -1);
        assertEquals(SavedModelAutoComplete.DEFAULT_MAX_BATCH_SIZE, config.getMaxBatchSize());
        assertTrue(config.hasDynamicBatching());
        assertEquals("x", config.getInput(0).getName());
        assertEquals(List.of(4L), config.getInput(0).getDimsList());
        assertEquals(List.of(3L), config.getOutput(0).getDimsList());
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment x = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1, 0, 0, 0);
            try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("bare")
                .addInput("x", DataType.FP32, new long[] {1, 4}, x))).throwIfError())
            {
                final MemorySegment y = response.output("y").data();
                for (int col = 0; col < 3; col++)
                {
                    assertEquals(TestSavedModels.WEIGHTS[col] + TestSavedModels.BIAS[col],
                        y.getAtIndex(ValueLayout.JAVA_FLOAT, col));
                }
            }
        }
    }

    @Test
    void aCorruptSavedModelIsNamed()
    {
        final String reason = reason("corrupt");
        assertTrue(reason.contains("model 'corrupt'") && reason.contains("saved_model.pb")
            && reason.contains("is not a SavedModel protocol buffer"), reason);
    }

    @Test
    void aConfigurationThatDisagreesWithTheSignatureSaysHow()
    {
        final String reason = reason("disagrees");
        assertTrue(reason.contains("model 'disagrees' version 1: the configuration disagrees with signature"
            + " 'serving_default'"), reason);
        assertTrue(reason.contains("tensor 'INPUT0': the model expects 2 dimensions (shape [-1,16])"), reason);
        assertTrue(reason.contains("making complete shape [-1,8]"), reason);
    }

    @Test
    void aTypeTensorFlowHasButTritonHasNotIsNamed()
    {
        final String reason = reason("complex");
        assertTrue(reason.contains("unable to process input 'z' for 'complex', unsupported datatype"
            + " 'DT_COMPLEX64'"), reason);
    }

    @Test
    void aSignatureNamingAMissingGraphTensorIsNamed()
    {
        final String reason = reason("dangling");
        assertTrue(reason.contains("model 'dangling' version 1: signature output 'y' names graph tensor"
            + " 'logits:0', but the graph has no operation 'logits'"), reason);
    }

    @Test
    void aGraphTensorFlowCannotBuildCarriesTensorFlowsReason()
    {
        final String reason = reason("unknown_op");
        assertTrue(reason.contains("model 'unknown_op' version 1: TensorFlow cannot load the SavedModel in"), reason);
        assertTrue(reason.contains("IngotNoSuchOp"), reason);
    }

    @Test
    void aVersionWithoutItsSavedModelIsNamed()
    {
        final String reason = reason("no_file");
        assertTrue(reason.contains("model.savedmodel") && reason.contains("no_file"), reason);
    }
}
