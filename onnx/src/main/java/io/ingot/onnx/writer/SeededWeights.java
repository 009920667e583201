package io.ingot.onnx.writer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Deterministic float32 weights from one seed: the same seed gives the same bytes on every machine and JVM
 * ({@link SplittableRandom} is specified bit for bit). Fast enough for tens of millions of values per second.
 */
final class SeededWeights
{
    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final float UNIT = 1.0f / (1 << 24);

    private final SplittableRandom random;

    /**
     * @param seed the seed
     */
    SeededWeights(final long seed)
    {
        this.random = new SplittableRandom(seed);
    }

    /**
     * @param count number of values
     * @param low   smallest value
     * @param high  largest value (exclusive)
     * @return {@code count} little-endian float32 values drawn uniformly from {@code [low, high)}
     */
    byte[] uniform(final long count, final float low, final float high)
    {
        final byte[] bytes = new byte[Math.toIntExact(count * Float.BYTES)];
        final MemorySegment target = MemorySegment.ofArray(bytes);
        final float span = high - low;
        for (long i = 0; i < count; i++)
        {
            target.setAtIndex(FLOAT_LE, i, low + span * ((random.nextInt() >>> 8) * UNIT));
        }
        return bytes;
    }
}
