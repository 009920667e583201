package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link ShapeKey}: equal keys exactly for shapes that may share a batch, {@link ShapeKey#NONE} for what does not fit,
 * and {@link BatchShapes} giving the same answer by key as by reading the requests.
 */
class ShapeKeyTest
{
    /** Two variable inputs (one optional, so that absence is possible) and one fixed input, which is not checked. */
    private static final ModelConfig CONFIG = TestModels.config("name: 'shapes' backend: 'recording'"
        + " max_batch_size: 8"
        + " input [{ name: 'A' data_type: TYPE_FP32 dims: [-1, -1] },"
        + "        { name: 'B' data_type: TYPE_FP32 dims: [-1] optional: true },"
        + "        { name: 'C' data_type: TYPE_FP32 dims: [3] }]"
        + " output [{ name: 'OUT' data_type: TYPE_FP32 dims: [-1] }]"
        + " dynamic_batching { }");
    private static final SchedulerSettings SETTINGS = SchedulerSettings.of(CONFIG);
    private static final ShapeKey KEYS = new ShapeKey(SETTINGS, true);

    /** A request with A of shape {@code a}, B of shape {@code b} (absent when null) and C of shape [batch, 3]. */
    private static PendingRequest pending(final long[] a, final long[] b)
    {
        final InferenceRequest request = new InferenceRequest("shapes")
            .addInput("A", DataType.FP32, a, MemorySegment.NULL)
            .addInput("C", DataType.FP32, new long[] {a[0], 3}, MemorySegment.NULL);
        final PendingRequest pending = new PendingRequest();
        pending.request = request;
        pending.inputIndexByConfig[0] = 0;
        pending.inputIndexByConfig[1] = -1;
        pending.inputIndexByConfig[2] = 1;
        pending.presentInputs = 0b101;
        if (b != null)
        {
            request.addInput("B", DataType.FP32, b, MemorySegment.NULL);
            pending.inputIndexByConfig[1] = 2;
            pending.presentInputs |= 0b010;
        }
        return pending;
    }

    private static long key(final long[] a, final long[] b)
    {
        final PendingRequest pending = pending(a, b);
        return KEYS.of(pending.request, pending.inputIndexByConfig);
    }

    @Test
    void theBatchDimensionIsNotPartOfTheKey()
    {
        assertEquals(key(new long[] {1, 4, 5}, new long[] {1, 7}), key(new long[] {6, 4, 5}, new long[] {6, 7}));
    }

    @Test
    void everyOtherDimensionPresenceAndRankIs()
    {
        final long key = key(new long[] {1, 4, 5}, new long[] {1, 7});
        assertNotEquals(key, key(new long[] {1, 4, 6}, new long[] {1, 7}));
        assertNotEquals(key, key(new long[] {1, 5, 4}, new long[] {1, 7}));
        assertNotEquals(key, key(new long[] {1, 4, 5}, new long[] {1, 8}));
        assertNotEquals(key, key(new long[] {1, 4, 5}, null));
        assertNotEquals(key, key(new long[] {1, 4, 5, 0}, new long[] {1, 7}));
        assertNotEquals(key(new long[] {1, 0}, null), key(new long[] {1}, null));
    }

    @Test
    void shapesThatDoNotFitAreNotPacked()
    {
        assertEquals(ShapeKey.NONE, key(new long[] {1, 4096, 5}, null));
        assertEquals(ShapeKey.NONE, key(new long[] {1, 2, 2, 2, 2, 2, 2}, null));
        assertNotEquals(ShapeKey.NONE, key(new long[] {1, 4095, 5}, new long[] {1, 4095}));
    }

    @Test
    void batchingByKeyAgreesWithBatchingByTheRequestsThemselves()
    {
        final BatchShapes shapes = new BatchShapes(SETTINGS, true);
        final Random random = new Random(13);
        int packed = 0;
        for (int i = 0; i < 20_000; i++)
        {
            final PendingRequest first = randomRequest(random);
            final PendingRequest second = randomRequest(random);
            final boolean byRequests = shapes.batchable(first, second);
            first.shapeKey = KEYS.of(first.request, first.inputIndexByConfig);
            second.shapeKey = KEYS.of(second.request, second.inputIndexByConfig);
            packed += first.shapeKey != ShapeKey.NONE && second.shapeKey != ShapeKey.NONE ? 1 : 0;
            assertEquals(byRequests, shapes.batchable(first, second), () -> "A " + first.request.inputRank(0)
                + "-d and " + second.request.inputRank(0) + "-d, keys " + first.shapeKey + " / " + second.shapeKey);
        }
        // Most pairs compare by key; some fall back to reading the requests. Both paths are exercised.
        assertNotEquals(0, packed);
        assertNotEquals(20_000, packed);
    }

    /** Small dimensions, so that equal shapes are frequent; now and then one too large to pack. */
    private static PendingRequest randomRequest(final Random random)
    {
        final long[] a = new long[2 + random.nextInt(2)];
        a[0] = 1 + random.nextInt(3);
        for (int d = 1; d < a.length; d++)
        {
            a[d] = random.nextInt(20) == 0 ? 4096 + random.nextInt(2) : random.nextInt(2);
        }
        final long[] b = random.nextBoolean() ? null : new long[] {a[0], random.nextInt(2)};
        return pending(a, b);
    }
}
