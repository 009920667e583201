package io.ingot.tensorflow;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.savedmodel.ExampleSavedModels;
import io.ingot.testing.TestFiles;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example repository's {@code my_model} and {@code priority_model}, the article's configurations over the
 * SavedModels {@link ExampleSavedModels} wrote at build time, served by a real core: {@code input_1} FP32 [16] in,
 * {@code output_1} = the dense layer out, batched; the priority model's tutorial form becomes Triton's three levels
 * with the queue bounds 10, 20 and 30, and a request at each level is answered.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArticleModelsTest
{
    private static final int WIDTH = ExampleSavedModels.ARTICLE_WIDTH;

    private InferenceCore core;

    @BeforeAll
    void serve(@TempDir final Path root) throws IOException
    {
        final Path examples = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        for (final String model : ExampleSavedModels.MODELS)
        {
            TestFiles.copyTree(examples.resolve(model), root.resolve(model));
        }
        core = InferenceCore.open(CoreOptions.builder().modelRepository(root).build());
    }

    @AfterAll
    void stop()
    {
        if (core != null)
        {
            core.close();
        }
    }

    @Test
    void myModelAnswersTheDenseLayerForConcurrentRequestsInBatches()
    {
        assertTrue(core.isModelReady("my_model", -1), () -> core.repositoryIndex(false).toString());
        final SplittableRandom random = new SplittableRandom(7);
        final List<float[]> rows = new ArrayList<>();
        final List<CompletableFuture<InferenceResponse>> sent = new ArrayList<>();
        try (Arena arena = Arena.ofShared())
        {
            for (int r = 0; r < 10; r++)
            {
                final float[] row = new float[WIDTH];
                for (int i = 0; i < WIDTH; i++)
                {
                    row[i] = (float) random.nextGaussian();
                }
                rows.add(row);
                sent.add(core.submit(new InferenceRequest("my_model").addInput("input_1", DataType.FP32,
                    new long[] {1, WIDTH}, arena.allocateFrom(ValueLayout.JAVA_FLOAT, row))));
            }
            for (int r = 0; r < 10; r++)
            {
                try (InferenceResponse response = TestModels.await(sent.get(r)).throwIfError())
                {
                    assertEquals(1, response.outputCount());
                    assertArrayEquals(new long[] {1, WIDTH}, response.output("output_1").shape());
                    assertArrayEquals(ExampleSavedModels.ARTICLE_LAYER.apply(rows.get(r)),
                        response.output("output_1").data().toArray(ValueLayout.JAVA_FLOAT), 1e-5f, "request " + r);
                }
            }
        }
        final var stats = core.modelStatistics("my_model", -1).getFirst();
        assertEquals(10, stats.inferenceCount());
        assertTrue(stats.executionCount() < 10, "the 10 concurrent requests were not batched: " + stats);
    }

    @Test
    void theTutorialPriorityFormBecomesTritonsLevelsWithTheArticlesQueueBounds()
    {
        final ModelConfig config = core.modelConfig("priority_model", -1);
        final ModelDynamicBatching batching = config.getDynamicBatching();
        assertEquals(3, batching.getPriorityLevels());
        assertEquals(2, batching.getDefaultPriorityLevel(), "default_priority 1 is Triton's level 2");
        final Map<Long, Integer> bounds = batching.getPriorityQueuePolicyMap().entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().getMaxQueueSize()));
        assertEquals(Map.of(1L, 10, 2L, 20, 3L, 30), bounds);
        assertEquals(List.of(8), batching.getPreferredBatchSizeList(), "normalized to max_batch_size");
    }

    @Test
    void priorityModelAnswersAtEveryLevel()
    {
        assertTrue(core.isModelReady("priority_model", -1), () -> core.repositoryIndex(false).toString());
        final float[] row = new float[WIDTH];
        row[3] = 1;
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment input = arena.allocateFrom(ValueLayout.JAVA_FLOAT, row);
            for (int level = 0; level <= 3; level++)
            {
                final InferenceRequest request = new InferenceRequest("priority_model")
                    .addInput("input_1", DataType.FP32, new long[] {1, WIDTH}, input);
                if (level > 0)
                {
                    request.priority(level);
                }
                try (InferenceResponse response = TestModels.await(core.submit(request)).throwIfError())
                {
                    assertArrayEquals(ExampleSavedModels.ARTICLE_LAYER.apply(row),
                        response.output("output_1").data().toArray(ValueLayout.JAVA_FLOAT), 1e-5f,
                        "priority level " + level);
                }
            }
        }
    }
}
