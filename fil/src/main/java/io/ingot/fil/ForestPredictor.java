package io.ingot.fil;

import java.lang.foreign.MemorySegment;

/**
 * One instance's prediction call: rows in, raw scores out, kept until the next call. Used by one thread at a time.
 */
interface ForestPredictor extends AutoCloseable
{
    /**
     * Predicts rows read in place from native memory.
     *
     * @param rows  {@code count x features} elements, row-major, of the type the predictor was made for
     * @param count rows
     * @param features features per row
     * @throws RuntimeException the library's error (an {@code XgboostException} or {@code LightgbmException})
     */
    void predict(MemorySegment rows, int count, long features);

    /**
     * @param index {@code row * scoresPerRow + score} into the last prediction
     * @return that score
     */
    double score(long index);

    /**
     * Writes the first {@code count} scores of the last prediction into {@code target} as FP32.
     *
     * @param target memory of at least {@code count} floats
     * @param count  scores to write
     */
    void copyScores(MemorySegment target, long count);

    /** Frees what the predictor holds. */
    @Override
    void close();
}
