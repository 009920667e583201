package io.ingot.onnx;

import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example ResNet-50 gives an image the same logits whether it runs alone or batched with other images. */
class ResNet50BatchingTest
{
    private static final int IMAGES = 8;
    private static final int PIXELS = 3 * 224 * 224;
    private static final int CLASSES = 1000;

    private static InferenceCore core;
    private static Arena arena;
    private static final List<MemorySegment> IMAGE_DATA = new ArrayList<>();

    @BeforeAll
    static void open()
    {
        core = ExampleRepository.open("resnet50");
        arena = Arena.ofShared();
        final SplittableRandom random = new SplittableRandom(2024);
        for (int i = 0; i < IMAGES; i++)
        {
            final MemorySegment image = arena.allocate((long) PIXELS * Float.BYTES, 64);
            for (int p = 0; p < PIXELS; p++)
            {
                image.setAtIndex(ValueLayout.JAVA_FLOAT, p, (float) random.nextDouble(-2, 2));
            }
            IMAGE_DATA.add(image);
        }
    }

    @AfterAll
    static void close() throws InterruptedException
    {
        if (core != null)
        {
            ExampleRepository.close(core);
        }
        if (arena != null)
        {
            arena.close();
        }
    }

    @Test
    void logitsOfAnImageAreTheSameBatchedAndAlone() throws Exception
    {
        final List<float[]> alone = new ArrayList<>();
        for (int i = 0; i < IMAGES; i++)
        {
            alone.add(logits(core.submit(request(i)).get(120, TimeUnit.SECONDS)));
        }
        final ModelStatistics before = ExampleRepository.statistics(core, "resnet50");

        final List<CompletableFuture<InferenceResponse>> batched = new ArrayList<>();
        for (int i = 0; i < IMAGES; i++)
        {
            batched.add(core.submit(request(i)));
        }
        for (int i = 0; i < IMAGES; i++)
        {
            final float[] together = logits(batched.get(i).get(120, TimeUnit.SECONDS));
            final float[] expected = alone.get(i);
            for (int c = 0; c < CLASSES; c++)
            {
                final float tolerance = 1e-4f * Math.max(1f, Math.abs(expected[c]));
                assertTrue(Math.abs(expected[c] - together[c]) <= tolerance, "image " + i + " class " + c + ": alone "
                    + expected[c] + ", batched " + together[c]);
            }
        }
        final ModelStatistics after = ExampleRepository.statistics(core, "resnet50");
        assertTrue(after.executionCount() - before.executionCount() < IMAGES,
            "8 images submitted at once must share executions: " + after);
        assertTrue(ExampleRepository.largestBatch(after) > 1, after::toString);
    }

    private static InferenceRequest request(final int image)
    {
        return new InferenceRequest("resnet50").id("image-" + image)
            .addInput("input", DataType.FP32, new long[] {1, 3, 224, 224}, IMAGE_DATA.get(image));
    }

    private static float[] logits(final InferenceResponse response)
    {
        try (response)
        {
            response.throwIfError();
            assertArrayEquals(new long[] {1, CLASSES}, response.output("logits").shape());
            final float[] values = response.output("logits").data().toArray(ValueLayout.JAVA_FLOAT);
            for (final float value : values)
            {
                assertTrue(Float.isFinite(value));
            }
            return values;
        }
    }
}
