package io.ingot.fil;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How the library's scores become {@code output__0}, as Triton's FIL backend makes them ({@code TreeliteModel::predict}
 * in {@code src/tl_model.h}). Each writes every output element exactly once. Stateless.
 */
enum OutputTransform
{
    /** Regression, or a classifier's probabilities as predicted: the scores themselves. */
    SCORES
    {
        @Override
        void write(final ForestPredictor scores, final int rows, final int width, final float threshold,
            final MemorySegment out)
        {
            scores.copyScores(out, (long)rows * width);
        }
    },
    /** A multi-class classifier without {@code predict_proba}: the class of the highest score (the first of ties). */
    ARG_MAX
    {
        @Override
        void write(final ForestPredictor scores, final int rows, final int width, final float threshold,
            final MemorySegment out)
        {
            for (int row = 0; row < rows; row++)
            {
                final long base = (long)row * width;
                int best = 0;
                double bestScore = scores.score(base);
                for (int k = 1; k < width; k++)
                {
                    final double score = scores.score(base + k);
                    if (score > bestScore)
                    {
                        best = k;
                        bestScore = score;
                    }
                }
                out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, row, best);
            }
        }
    },
    /** A binary classifier without {@code predict_proba}: 1 when the probability is above the threshold, else 0. */
    THRESHOLD
    {
        @Override
        void write(final ForestPredictor scores, final int rows, final int width, final float threshold,
            final MemorySegment out)
        {
            for (int row = 0; row < rows; row++)
            {
                out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, row, scores.score(row) > threshold ? 1.0f : 0.0f);
            }
        }
    },
    /** A binary classifier with {@code predict_proba} and two outputs: {@code [1 - p, p]}. */
    BINARY_PAIR
    {
        @Override
        void write(final ForestPredictor scores, final int rows, final int width, final float threshold,
            final MemorySegment out)
        {
            for (int row = 0; row < rows; row++)
            {
                final float p = (float)scores.score(row);
                out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * row, 1.0f - p);
                out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * row + 1, p);
            }
        }
    },
    /** Margins of a multi-class model with {@code predict_proba}: their softmax, per row. */
    SOFTMAX
    {
        @Override
        void write(final ForestPredictor scores, final int rows, final int width, final float threshold,
            final MemorySegment out)
        {
            for (int row = 0; row < rows; row++)
            {
                final long base = (long)row * width;
                double max = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < width; k++)
                {
                    max = Math.max(max, scores.score(base + k));
                }
                double sum = 0;
                for (int k = 0; k < width; k++)
                {
                    sum += Math.exp(scores.score(base + k) - max);
                }
                for (int k = 0; k < width; k++)
                {
                    out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, base + k,
                        (float)(Math.exp(scores.score(base + k) - max) / sum));
                }
            }
        }
    };

    /**
     * @param scores    the last prediction
     * @param rows      rows predicted
     * @param width     scores per row
     * @param threshold the binary decision threshold
     * @param out       {@code output__0}'s memory, FP32, {@code rows x} outputs per row
     */
    abstract void write(ForestPredictor scores, int rows, int width, float threshold, MemorySegment out);

    /**
     * Chooses the transform for a model and configuration, as Triton's FIL backend does.
     *
     * @param classifier   {@code is_classifier}
     * @param predictProba {@code predict_proba}
     * @param width        scores per row
     * @param margins      whether the scores are margins (a multi-class model that predicts class ids)
     * @param outputs      {@code output__0}'s values per row as configured
     * @return the transform
     */
    static OutputTransform choose(final boolean classifier, final boolean predictProba, final int width,
        final boolean margins, final long outputs)
    {
        if (!classifier)
        {
            // Treelite loads multi:softmax with a max_index post-processor: a regressor reading one gets class ids.
            return margins ? ARG_MAX : SCORES;
        }
        if (!predictProba)
        {
            return width > 1 ? ARG_MAX : THRESHOLD;
        }
        if (margins)
        {
            return SOFTMAX;
        }
        return width == 1 && outputs == 2 ? BINARY_PAIR : SCORES;
    }

    /**
     * @param classifier   {@code is_classifier}
     * @param predictProba {@code predict_proba}
     * @param width        scores per row
     * @param margins      whether the scores are margins (a multi-class model that predicts class ids)
     * @return the values per row {@code output__0} may have: one, or {@code width}; a binary classifier with
     *         {@code predict_proba} may have 1 or 2
     */
    static long[] allowedOutputs(final boolean classifier, final boolean predictProba, final int width,
        final boolean margins)
    {
        if (classifier && !predictProba || !classifier && margins)
        {
            return new long[] {1};
        }
        if (classifier && width == 1)
        {
            return new long[] {1, 2};
        }
        return new long[] {width};
    }
}
