package io.ingot.fil;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.fil.examples.ExampleModelGenerator;
import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIL models served by a real core from a Triton model repository: concurrent requests dynamically batched into
 * one library call give every client its own rows' answers; a broken model fails alone; the example repository's
 * XGBoost classifier answers as the rule it learned says.
 */
class CoreServingTest
{
    @TempDir
    Path repo;

    @Test
    void concurrentRequestsAreBatchedAndEachGetsItsOwnAnswer() throws Exception
    {
        final String batching = "dynamic_batching { max_queue_delay_microseconds: 20000 }";
        try (XgbBooster xgb = TreeModels.xgbRegressor(); LgbmBooster lgbm = TreeModels.lgbmRegressor())
        {
            TreeModels.xgbModel(repo, "xgb", xgb, "xgboost.json", TreeModels.config("xgb", "xgboost_json", false,
                false, 1, batching));
            TreeModels.lgbmModel(repo, "lgbm", lgbm, TreeModels.config("lgbm", "lightgbm", false, false, 1,
                batching));
        }
        Files.createDirectories(repo.resolve("broken").resolve("1"));
        Files.writeString(repo.resolve("broken").resolve("1").resolve("model.txt"), "not a model");
        Files.writeString(repo.resolve("broken").resolve("config.pbtxt"), TreeModels.config("broken", "lightgbm",
            false, false, 1, ""));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build());
            Arena arena = Arena.ofShared())
        {
            assertTrue(core.isModelReady("xgb", -1) && core.isModelReady("lgbm", -1), core.repositoryIndex(false)
                .toString());
            final ModelIndexEntry broken = core.repositoryIndex(false).stream()
                .filter(entry -> entry.name().equals("broken")).findFirst().orElseThrow();
            assertFalse(core.isModelReady("broken", -1));
            assertTrue(broken.reason().contains("LightGBM cannot read"), broken.reason());

            for (final String model : List.of("xgb", "lgbm"))
            {
                final List<CompletableFuture<InferenceResponse>> pending = new ArrayList<>();
                for (int i = 0; i < 32; i++)
                {
                    final MemorySegment row = arena.allocateFrom(ValueLayout.JAVA_FLOAT, i % 8, 0);
                    pending.add(core.submit(new InferenceRequest(model).id(model + i)
                        .addInput("input__0", DataType.FP32, new long[] {1, 2}, row)));
                }
                for (int i = 0; i < pending.size(); i++)
                {
                    try (InferenceResponse response = TestModels.await(pending.get(i)).throwIfError())
                    {
                        assertEquals(DataType.FP32, response.output("output__0").dataType());
                        assertEquals(i % 8 < 4 ? 1 : 5, response.output("output__0").data()
                            .get(ValueLayout.JAVA_FLOAT, 0), 1e-5, model + " request " + i);
                    }
                }
                final long largest = core.modelStatistics(model, -1).getFirst().batchStats().stream()
                    .mapToLong(stats -> stats.batchSize()).max().orElse(0);
                assertTrue(largest > 1, model + " executed no batch of more than one request");
            }
        }
    }

    @Test
    void theExampleClassifierAnswersAsTheRuleItLearned() throws Exception
    {
        final Path examples = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        assertTrue(Files.isRegularFile(examples.resolve("xgboost_classifier/1/xgboost.json")),
            "the fil module's build writes examples/models/xgboost_classifier/1/xgboost.json");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(examples)
            .controlMode(io.ingot.api.ModelControlMode.EXPLICIT).startupModel("xgboost_classifier").build());
            Arena arena = Arena.ofShared())
        {
            assertTrue(core.isModelReady("xgboost_classifier", -1), core.repositoryIndex(false).toString());
            final float[][] rows = {{0.9f, 0.9f, 0.1f, 0.5f}, {0.1f, 0.1f, 0.9f, 0.5f}, {0.8f, 0.6f, 0.2f, 0.1f},
                {0.2f, 0.3f, 0.7f, 0.9f}};
            final float[] flat = new float[16];
            for (int r = 0; r < 4; r++)
            {
                System.arraycopy(rows[r], 0, flat, 4 * r, 4);
            }
            final MemorySegment data = arena.allocateFrom(ValueLayout.JAVA_FLOAT, flat);
            try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("xgboost_classifier")
                .addInput("input__0", DataType.FP32, new long[] {4, 4}, data))).throwIfError())
            {
                final MemorySegment out = response.output("output__0").data();
                assertEquals(List.of(4L, 2L), java.util.Arrays.stream(response.output("output__0").shape()).boxed()
                    .toList());
                for (int r = 0; r < 4; r++)
                {
                    final float p0 = out.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * r);
                    final float p1 = out.getAtIndex(ValueLayout.JAVA_FLOAT, 2L * r + 1);
                    final float label = ExampleModelGenerator.label(rows[r][0], rows[r][1], rows[r][2]);
                    assertEquals(1, p0 + p1, 1e-5);
                    assertTrue(label == 1 ? p1 > 0.8 : p1 < 0.2, "row " + r + " (label " + label + "): p1 = " + p1);
                }
            }
        }
    }
}
