package io.ingot.fil.lightgbm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.ingot.fil.lightgbm.LightgbmException.check;

/**
 * Trains a small LightGBM model through the C API ({@code LGBM_DatasetCreateFromMat}, {@code LGBM_DatasetSetField},
 * {@code LGBM_BoosterCreate}, {@code LGBM_BoosterUpdateOneIter}): how this project makes its LightGBM test models
 * from data it chooses. Stateless.
 */
public final class LgbmTraining
{
    private LgbmTraining()
    {
    }

    /**
     * @param features   row-major {@code rows x cols} features
     * @param cols       features per row
     * @param labels     one label per row
     * @param parameters LightGBM parameters, {@code key=value} separated by spaces ({@code objective=binary ...})
     * @param iterations boosting iterations
     * @return the trained booster, which the caller closes
     * @throws LightgbmException when LightGBM refuses the data or a parameter
     */
    public static LgbmBooster train(final float[] features, final int cols, final float[] labels,
        final String parameters, final int iterations)
    {
        if (cols <= 0 || features.length != (long)labels.length * cols)
        {
            throw new IllegalArgumentException(features.length + " features do not make " + labels.length
                + " rows of " + cols);
        }
        Lightgbm.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment x = arena.allocateFrom(ValueLayout.JAVA_FLOAT, features);
            final MemorySegment y = arena.allocateFrom(ValueLayout.JAVA_FLOAT, labels);
            final MemorySegment params = arena.allocateFrom(parameters);
            final MemorySegment out = arena.allocate(Lightgbm.C_POINTER);
            check(Lightgbm.LGBM_DatasetCreateFromMat(x, Lightgbm.C_API_DTYPE_FLOAT32, labels.length, cols, 1, params,
                MemorySegment.NULL, out), "LGBM_DatasetCreateFromMat");
            final MemorySegment dataset = out.get(Lightgbm.C_POINTER, 0);
            try
            {
                check(Lightgbm.LGBM_DatasetSetField(dataset, arena.allocateFrom("label"), y, labels.length,
                    Lightgbm.C_API_DTYPE_FLOAT32), "LGBM_DatasetSetField(label)");
                check(Lightgbm.LGBM_BoosterCreate(dataset, params, out), "LGBM_BoosterCreate");
            }
            catch (final RuntimeException ex)
            {
                check(Lightgbm.LGBM_DatasetFree(dataset), "LGBM_DatasetFree");
                throw ex;
            }
            // The booster now owns the dataset: it is freed after the booster.
            final LgbmBooster booster = new LgbmBooster(out.get(Lightgbm.C_POINTER, 0), iterations, dataset);
            try
            {
                final MemorySegment finished = arena.allocate(Lightgbm.C_INT);
                for (int i = 0; i < iterations; i++)
                {
                    check(Lightgbm.LGBM_BoosterUpdateOneIter(booster.handle(), finished), "LGBM_BoosterUpdateOneIter");
                }
                return booster;
            }
            catch (final RuntimeException ex)
            {
                booster.close();
                throw ex;
            }
        }
    }
}
