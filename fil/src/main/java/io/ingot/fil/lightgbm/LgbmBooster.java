package io.ingot.fil.lightgbm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.ingot.fil.lightgbm.LightgbmException.check;

/**
 * One LightGBM booster ({@code BoosterHandle}), freed exactly once by {@link #close()}. Queries may run from any
 * thread; LightGBM's own lock orders them against prediction ({@code Booster::mutex_} in {@code src/c_api.cpp}).
 */
public final class LgbmBooster implements AutoCloseable
{
    private final MemorySegment handle;
    private final int iterations;
    private final MemorySegment trainingData;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param handle       the booster
     * @param iterations   its boosting iterations
     * @param trainingData the {@code DatasetHandle} it was trained on, freed after it (a trained booster keeps a
     *                     pointer to it), or {@link MemorySegment#NULL}
     */
    LgbmBooster(final MemorySegment handle, final int iterations, final MemorySegment trainingData)
    {
        this.handle = handle;
        this.iterations = iterations;
        this.trainingData = trainingData;
    }

    /**
     * Loads a model file in LightGBM's text format ({@code LGBM_BoosterCreateFromModelfile}).
     *
     * @param file the model file
     * @return the booster
     * @throws LightgbmException when LightGBM cannot read it (LightGBM's message)
     * @throws io.ingot.fil.bundled.NativeLibraryUnavailableException when the library cannot be loaded
     */
    public static LgbmBooster load(final Path file)
    {
        Lightgbm.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment iterations = arena.allocate(Lightgbm.C_INT);
            final MemorySegment out = arena.allocate(Lightgbm.C_POINTER);
            check(Lightgbm.LGBM_BoosterCreateFromModelfile(arena.allocateFrom(file.toAbsolutePath().toString()),
                iterations, out), "LGBM_BoosterCreateFromModelfile");
            return new LgbmBooster(out.get(Lightgbm.C_POINTER, 0), iterations.get(Lightgbm.C_INT, 0),
                MemorySegment.NULL);
        }
    }

    /** @return the handle, for {@link MatPrediction} */
    MemorySegment handle()
    {
        if (closed.get())
        {
            throw new IllegalStateException("the LightGBM booster was closed");
        }
        return handle;
    }

    /** @return the boosting iterations the model holds */
    public int iterations()
    {
        return iterations;
    }

    /** @return the number of features ({@code LGBM_BoosterGetNumFeature}) */
    public int numFeatures()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(Lightgbm.C_INT);
            check(Lightgbm.LGBM_BoosterGetNumFeature(handle(), out), "LGBM_BoosterGetNumFeature");
            return out.get(Lightgbm.C_INT, 0);
        }
    }

    /** @return the number of classes ({@code LGBM_BoosterGetNumClasses}): 1 for regression and binary models */
    public int numClasses()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(Lightgbm.C_INT);
            check(Lightgbm.LGBM_BoosterGetNumClasses(handle(), out), "LGBM_BoosterGetNumClasses");
            return out.get(Lightgbm.C_INT, 0);
        }
    }

    /**
     * @param predictType {@link Lightgbm#C_API_PREDICT_NORMAL} or {@link Lightgbm#C_API_PREDICT_RAW_SCORE}
     * @return values one row predicts ({@code LGBM_BoosterCalcNumPredict} for one row)
     */
    public int outputsPerRow(final int predictType)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(Lightgbm.C_INT64);
            check(Lightgbm.LGBM_BoosterCalcNumPredict(handle(), 1, predictType, 0, -1, out),
                "LGBM_BoosterCalcNumPredict");
            return (int)out.get(Lightgbm.C_INT64, 0);
        }
    }

    /**
     * Saves the model in LightGBM's text format.
     *
     * @param file where to write
     */
    public void save(final Path file)
    {
        try (Arena arena = Arena.ofConfined())
        {
            check(Lightgbm.LGBM_BoosterSaveModel(handle(), 0, -1, 0,
                arena.allocateFrom(file.toAbsolutePath().toString())), "LGBM_BoosterSaveModel");
        }
    }

    /** Frees the booster; later calls are ignored. */
    @Override
    public void close()
    {
        if (closed.compareAndSet(false, true))
        {
            try
            {
                check(Lightgbm.LGBM_BoosterFree(handle), "LGBM_BoosterFree");
            }
            finally
            {
                if (!trainingData.equals(MemorySegment.NULL))
                {
                    check(Lightgbm.LGBM_DatasetFree(trainingData), "LGBM_DatasetFree");
                }
            }
        }
    }
}
