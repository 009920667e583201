package io.ingot.fil.lightgbm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static io.ingot.fil.lightgbm.LightgbmException.check;

/**
 * LightGBM's prediction over a dense, row-major matrix as one reusable call: LightGBM reads the caller's rows where
 * they lie and writes {@code double}s straight into the caller's output memory. A single row goes through
 * {@code LGBM_BoosterPredictForMatSingleRowFast} (its configuration parsed once, here), more through
 * {@code LGBM_BoosterPredictForMat}. {@link #predict} allocates nothing on the Java side.
 *
 * <p>Not thread-safe: one per thread. The single-row path takes the booster's lock exclusively, so threads that
 * predict concurrently should each have a booster of their own.
 */
public final class MatPrediction implements AutoCloseable
{
    private final LgbmBooster booster;
    private final Arena arena = Arena.ofShared();
    private final int predictType;
    private final int dataType;
    private final int columns;
    private final MemorySegment parameter;
    private final MemorySegment outLen;
    private final MemorySegment fastConfig;

    /**
     * @param booster     the model
     * @param predictType {@link Lightgbm#C_API_PREDICT_NORMAL} or {@link Lightgbm#C_API_PREDICT_RAW_SCORE}
     * @param dataType    {@link Lightgbm#C_API_DTYPE_FLOAT32} or {@link Lightgbm#C_API_DTYPE_FLOAT64}
     * @param columns     features per row
     * @param threads     OpenMP threads per prediction, or 0 or less for LightGBM's default
     * @throws LightgbmException when LightGBM refuses the configuration
     */
    public MatPrediction(final LgbmBooster booster, final int predictType, final int dataType, final int columns,
        final int threads)
    {
        this.booster = booster;
        this.predictType = predictType;
        this.dataType = dataType;
        this.columns = columns;
        this.parameter = arena.allocateFrom(threads > 0 ? "num_threads=" + threads : "", StandardCharsets.US_ASCII);
        this.outLen = arena.allocate(Lightgbm.C_INT64);
        final MemorySegment out = arena.allocate(Lightgbm.C_POINTER);
        try
        {
            check(Lightgbm.LGBM_BoosterPredictForMatSingleRowFastInit(booster.handle(), predictType, 0, -1, dataType,
                columns, parameter, out), "LGBM_BoosterPredictForMatSingleRowFastInit");
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
        this.fastConfig = out.get(Lightgbm.C_POINTER, 0);
    }

    /**
     * @param data   native memory holding {@code rows x columns} elements of the data type, row-major
     * @param rows   rows
     * @param result native memory for {@code rows} times outputs-per-row {@code double}s
     * @return the number of doubles written
     * @throws LightgbmException when LightGBM fails
     */
    public long predict(final MemorySegment data, final int rows, final MemorySegment result)
    {
        if (rows == 1)
        {
            check(Lightgbm.LGBM_BoosterPredictForMatSingleRowFast(fastConfig, data, outLen, result),
                "LGBM_BoosterPredictForMatSingleRowFast");
        }
        else
        {
            check(Lightgbm.LGBM_BoosterPredictForMat(booster.handle(), data, dataType, rows, columns, 1, predictType,
                0, -1, parameter, outLen, result), "LGBM_BoosterPredictForMat");
        }
        return outLen.get(Lightgbm.C_INT64, 0);
    }

    /** Frees the fast configuration and this call's memory (not the booster). */
    @Override
    public void close()
    {
        try
        {
            check(Lightgbm.LGBM_FastConfigFree(fastConfig), "LGBM_FastConfigFree");
        }
        finally
        {
            arena.close();
        }
    }
}
