package io.ingot.examples.embedding;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Sentence-transformers' pooling for MiniLM: the mean of {@code last_hidden_state} over the positions whose
 * attention mask is 1, then L2-normalised, so that a dot product of two embeddings is their cosine similarity.
 * Stateless.
 */
public final class MeanPooling
{
    /** all-MiniLM-L6-v2's hidden size. */
    public static final int DIMENSIONS = 384;

    private static final ValueLayout.OfFloat FLOAT =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private MeanPooling()
    {
    }

    /**
     * @param hidden {@code last_hidden_state} of one text, [length, 384] little-endian floats (Ingot's output memory,
     *               or a KServe response's bytes)
     * @param tokens how many leading positions are tokens
     * @return the embedding
     */
    public static float[] pool(final MemorySegment hidden, final int tokens)
    {
        final float[] sum = new float[DIMENSIONS];
        for (int t = 0; t < tokens; t++)
        {
            for (int d = 0; d < DIMENSIONS; d++)
            {
                sum[d] += hidden.getAtIndex(FLOAT, (long)t * DIMENSIONS + d);
            }
        }
        return normalise(sum);
    }

    private static float[] normalise(final float[] vector)
    {
        double norm = 0;
        for (final float value : vector)
        {
            norm += (double)value * value;
        }
        final float scale = (float)(1 / Math.max(Math.sqrt(norm), 1e-12));
        for (int d = 0; d < vector.length; d++)
        {
            vector[d] *= scale;
        }
        return vector;
    }
}
